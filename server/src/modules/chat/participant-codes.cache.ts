/** A group's participant codes as they were at one participants version (chat_group.participants_version). */
export interface ParticipantCodes {
  version: string;
  codes: string[];
}

/** Groups whose codes are kept; past this, the least recently stored are dropped (and read again when needed). */
const MAX_GROUPS = 50_000;

/**
 * The participant codes of the groups this process stores messages in, so the message insert reads them only
 * when a group's participants changed since (see INSERT_MESSAGES_SQL): a group of ten costs eleven index lookups
 * per batch otherwise. Exact, not a guess: each entry carries the version it was read at, and the statement
 * answers the codes again whenever the version it finds differs. Per process; nothing to invalidate.
 */
export class ParticipantCodesCache {
  private readonly groups = new Map<string, ParticipantCodes>();

  constructor(private readonly maxGroups = MAX_GROUPS) {}

  get(groupCode: string): ParticipantCodes | undefined {
    return this.groups.get(groupCode);
  }

  /** Keeps the codes unless a later version is already kept (two batches can answer out of order). */
  remember(groupCode: string, entry: ParticipantCodes): void {
    const kept = this.groups.get(groupCode);
    if (kept && BigInt(kept.version) > BigInt(entry.version)) return;
    this.groups.delete(groupCode);
    this.groups.set(groupCode, entry);
    if (this.groups.size > this.maxGroups) this.groups.delete(this.groups.keys().next().value!);
  }
}
