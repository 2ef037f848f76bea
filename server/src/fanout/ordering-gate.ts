import type { RedisClientType } from 'redis';
import { RedisScript } from '#shared/redis/redis-script';
import { RedisService } from '#shared/redis/redis.service';
import { routeConfig } from './fanout-routing.scripts';
import { LuaPiece, luaPiece } from './lua-script';
import { flushScript, gateScript, STALLED } from './ordering-gate.scripts';

/**
 * What another owner does when the gate releases a message, in the gate's own Redis call. The gate passes each
 * message's `effect` through untouched; it orders and nothing else.
 */
export interface ReleaseStep {
  /**
   * The piece defining the step's constructor, `local function <name>(config, routing)`, which the gate's scripts
   * call once per call with this step's `config` (text) and their Routing (fanout-routing.scripts). It answers the
   * step: `function(group, seq, effect, answers)`, run right after a message of `group` is routed, with the
   * message's seq (a number) and effect (text, never empty); it may route deliveries (`routing.route`,
   * `routing.routeLine`) and append strings to `answers`, the message's answers in the call's result.
   */
  lua: LuaPiece;
  /** The text the step's constructor receives as `config`. */
  config: string;
}

/**
 * One passage through the gate: a message (its seq, and its effect for the release step) or a follow-up of one
 * (`follows`: when the message of that seq was committed, ms since the epoch; routed only once that message is,
 * right behind it), with its entry (OrderingGate.entry).
 */
export interface GatePassage {
  groupCode: string;
  seq: number;
  follows?: number;
  entry: string;
  effect: string;
}

/** The deliveries a gate call answered for its own node (an inbox entry's text), and the newest id in that node's inbox when the call ran. */
export interface OwnDeliveries {
  entry: string;
  after: string;
}

/** What one gate call answers: per message its release-step answers, and the calling node's own deliveries (null when none). */
export interface GateAnswer {
  answers: string[][];
  own: OwnDeliveries | null;
}

/** The gate with no release step. */
export const NO_RELEASE_STEP: ReleaseStep = {
  lua: luaPiece('NoReleaseStep', [], 'local function NoReleaseStep(config, routing) return function(group, seq, effect, answers) end end'),
  config: '',
};
const stalledScript = new RedisScript(STALLED);

/**
 * The per-group gate in Redis: a group's messages are routed to the nodes' inboxes in seq order (see
 * gateScript). Every call is one atomic script, so a message's release and its release step never part. A gate
 * for a node (`ownNode`) gets that node's deliveries back in the call's answer instead of in its inbox.
 */
export class OrderingGate {
  private readonly gate: RedisScript;
  private readonly flush: RedisScript;

  constructor(
    private readonly redis: RedisService,
    private readonly step: ReleaseStep = NO_RELEASE_STEP,
    private readonly ownNode = '',
  ) {
    this.gate = new RedisScript(gateScript(step.lua));
    this.flush = new RedisScript(flushScript(step.lua));
  }

  private get client(): RedisClientType {
    return this.redis.client;
  }

  private keys(groupCode: string): string[] {
    return [
      this.redis.key('fanout', 'last', groupCode),
      this.redis.key('fanout', 'pending', groupCode),
      this.redis.key('fanout', 'held'),
      this.redis.key('fanout', 'skipped', groupCode),
    ];
  }

  /** A passage's entry: its rooms, its event and its payload, as the gate's scripts read them. */
  static entry(rooms: string[], event: string, payload: unknown): string {
    return `${JSON.stringify(rooms)}\n${event}\n${JSON.stringify(payload)}`;
  }

  /**
   * Releases each message now, or holds it until its predecessors came, in one call, in this order; answers each
   * one's release-step answers and the deliveries for this gate's own node.
   */
  async passAll(passages: readonly GatePassage[]): Promise<GateAnswer> {
    const keys = [this.redis.key('fanout', 'held')];
    const args = [routeConfig(this.redis.prefix, this.ownNode), this.step.config];
    for (const p of passages) {
      keys.push(
        this.redis.key('fanout', 'last', p.groupCode),
        this.redis.key('fanout', 'pending', p.groupCode),
        this.redis.key('fanout', 'skipped', p.groupCode),
      );
      args.push(p.groupCode, p.follows === undefined ? String(p.seq) : `@${p.seq}:${Math.floor(p.follows)}`, p.entry, p.effect);
    }
    const [answers, entry, after] = (await this.gate.run(this.client, { keys, arguments: args })) as [string[][], string, string];
    return { answers, own: entry ? { entry, after } : null };
  }

  /** The groups whose oldest held message has waited `holdMs` or more. */
  async stalled(holdMs: number): Promise<string[]> {
    return (await stalledScript.run(this.client, { keys: [this.redis.key('fanout', 'held')], arguments: [String(holdMs)] })) as string[];
  }

  /** Lets a group still stalled for `holdMs` through past its missing seqs; answers how many and the steps' answers. */
  async letThrough(groupCode: string, holdMs: number): Promise<{ released: number; answers: string[] }> {
    const [released, answers] = (await this.flush.run(this.client, {
      keys: this.keys(groupCode),
      arguments: [routeConfig(this.redis.prefix), groupCode, this.step.config, String(holdMs)],
    })) as [number, string[]];
    return { released, answers };
  }
}
