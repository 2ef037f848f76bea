import type { OwnDeliveries } from './ordering-gate';

/** Two stream ids (`<ms>-<n>`) in Redis' order: negative when `a` comes first. */
export function compareStreamIds(a: string, b: string): number {
  const dashA = a.indexOf('-');
  const dashB = b.indexOf('-');
  return Number(a.slice(0, dashA)) - Number(b.slice(0, dashB)) || Number(a.slice(dashA + 1)) - Number(b.slice(dashB + 1));
}

/** An inbox entry as the reader received it. */
export interface InboxEntry {
  id: string;
  message: Record<string, string>;
}

/**
 * This node's deliveries come from two places: its inbox (what other nodes' gate calls, the sweeper and the
 * unread owner's scripts route here) and the answers of its own gate calls, which carry its deliveries instead
 * of writing them to its inbox (the Routing piece's `flush()`, fanout-routing.scripts). This puts the two back in the order Redis
 * made them, which is what keeps each group's messages and each user's counts in order on this node:
 *
 * - an answer goes after the inbox entries up to its `after` (the inbox's newest id when its call ran), so it
 *   waits until the reader has received them;
 * - an inbox entry goes after every answer whose call ran before the entry was written. Such a call was sent
 *   before the reader received the entry, so an entry waits for the calls that were in flight when it arrived.
 *
 * `deliver` gets what is due, in order, one batch per step.
 */
export class DeliveryOrder {
  private lastCall = 0;
  /** Calls sent and not yet answered, in the order sent (a Set keeps insertion order: the first is the oldest). */
  private readonly inFlight = new Set<number>();
  private readonly answers: OwnDeliveries[] = [];
  /** Inbox entries not delivered yet, each with the newest gate call sent before the reader received it. */
  private readonly entries: { id: string; entry: string | undefined; lastCallBefore: number }[] = [];
  /** The newest inbox id the reader has received. */
  private readUpTo = '0-0';
  /** While the node registers again and catches up, answers wait (see restart). */
  private paused = true;

  constructor(private readonly deliver: (entries: string[]) => void) {}

  /** A gate call is about to be sent: its ticket for `answered`. */
  callSent(): number {
    this.inFlight.add(++this.lastCall);
    return this.lastCall;
  }

  /** The call's answer: its deliveries for this node, or null (none, or the call failed). */
  answered(call: number, own: OwnDeliveries | null): void {
    this.inFlight.delete(call);
    if (own) this.answers.push(own);
    this.pump();
  }

  /** Entries the reader received from the inbox, in stream order. */
  received(batch: readonly InboxEntry[]): void {
    for (const { id, message } of batch) this.entries.push({ id, entry: message.e, lastCallBefore: this.lastCall });
    if (batch.length) this.readUpTo = batch[batch.length - 1].id;
    this.pump();
  }

  /**
   * The node's inbox is gone and it registers again: what is waiting goes now, in its order (nothing more will
   * come from that inbox), and answers wait until `resume` (the reader has caught up from the recent stream).
   */
  restart(): void {
    const waiting = mergeAll(this.entries.splice(0), this.answers.splice(0));
    if (waiting.length) this.deliver(waiting);
    this.readUpTo = '0-0';
    this.paused = true;
  }

  /** The reader reads the inbox (again): answers are delivered in their place. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pump();
  }

  private pump(): void {
    const due: string[] = [];
    for (;;) {
      const entry = this.entries[0];
      const answer = this.paused ? undefined : this.answers[0];
      if (entry && (!answer || compareStreamIds(entry.id, answer.after) <= 0)) {
        if (this.oldestInFlight() <= entry.lastCallBefore) break;
        this.entries.shift();
        if (entry.entry) due.push(entry.entry);
      } else if (answer && compareStreamIds(this.readUpTo, answer.after) >= 0) {
        this.answers.shift();
        due.push(answer.entry);
      } else break;
    }
    if (due.length) this.deliver(due);
  }

  private oldestInFlight(): number {
    for (const call of this.inFlight) return call;
    return Infinity;
  }
}

function mergeAll(entries: { id: string; entry: string | undefined }[], answers: OwnDeliveries[]): string[] {
  const merged: string[] = [];
  let a = 0;
  for (const { id, entry } of entries) {
    while (a < answers.length && compareStreamIds(answers[a].after, id) < 0) merged.push(answers[a++].entry);
    if (entry) merged.push(entry);
  }
  while (a < answers.length) merged.push(answers[a++].entry);
  return merged;
}
