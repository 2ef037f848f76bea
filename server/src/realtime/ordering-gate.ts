import type { RedisClientType } from 'redis';
import { RedisScript } from '#shared/redis/redis-script';
import { RedisService } from '#shared/redis/redis.service';
import { FANOUT_STREAM_MAX_LEN, fanoutStreamKey } from './fanout-stream';
import { flushScript, gateScript, STALLED } from './ordering-gate.scripts';

/**
 * What another owner does when the gate releases a message, in the gate's own Redis call. The gate passes each
 * message's `effect` through untouched; it orders and nothing else.
 */
export interface ReleaseStep {
  /**
   * Lua defining `local function step(seq, effect)`, run right after a message enters the stream. It may read
   * `group`, `stream`, `maxLen` and `stepConfig`, write to the stream, and append strings to `answers`.
   */
  lua: string;
  /** A constant the script reads as `stepConfig`. */
  config: string;
}

/** One message for the gate: its group and seq, its stream entry, and its effect for the release step. */
export interface GatePassage {
  groupCode: string;
  seq: number;
  entry: string;
  effect: string;
}

const NO_STEP: ReleaseStep = { lua: 'local function step(seq, effect) end', config: '' };
const stalledScript = new RedisScript(STALLED);

/**
 * The per-group gate in Redis: a group's messages enter the shared fan-out stream in seq order (see
 * gateScript). Every call is one atomic script, so a message's release and its release step never part.
 */
export class OrderingGate {
  private readonly gate: RedisScript;
  private readonly flush: RedisScript;

  constructor(
    private readonly redis: RedisService,
    private readonly step: ReleaseStep = NO_STEP,
  ) {
    this.gate = new RedisScript(gateScript(step.lua));
    this.flush = new RedisScript(flushScript(step.lua));
  }

  private get client(): RedisClientType {
    return this.redis.client;
  }

  private groupKeys(groupCode: string): string[] {
    return [this.redis.key('fanout', 'last', groupCode), this.redis.key('fanout', 'pending', groupCode), this.redis.key('fanout', 'skipped', groupCode)];
  }

  /** Releases the message now, or holds it until its predecessors came; answers the release steps' answers. */
  async pass(groupCode: string, seq: number, entry: string, effect: string): Promise<string[]> {
    const [answers] = await this.passAll([{ groupCode, seq, entry, effect }]);
    return answers;
  }

  /** `pass` for several messages in one call, in this order; answers each one's release-step answers. */
  async passAll(passages: readonly GatePassage[]): Promise<string[][]> {
    const keys = [this.redis.key('fanout', 'held'), fanoutStreamKey(this.redis)];
    const args = [String(FANOUT_STREAM_MAX_LEN), this.step.config];
    for (const p of passages) {
      keys.push(...this.groupKeys(p.groupCode));
      args.push(p.groupCode, String(p.seq), p.entry, p.effect);
    }
    return (await this.gate.run(this.client, { keys, arguments: args })) as string[][];
  }

  /** The groups whose oldest held message has waited `holdMs` or more. */
  async stalled(holdMs: number): Promise<string[]> {
    return (await stalledScript.run(this.client, { keys: [this.redis.key('fanout', 'held')], arguments: [String(holdMs)] })) as string[];
  }

  /** Lets a group still stalled for `holdMs` through past its missing seqs; answers how many and the steps' answers. */
  async letThrough(groupCode: string, holdMs: number): Promise<{ released: number; answers: string[] }> {
    const [last, pending, skipped] = this.groupKeys(groupCode);
    const [released, answers] = (await this.flush.run(this.client, {
      keys: [last, pending, this.redis.key('fanout', 'held'), fanoutStreamKey(this.redis), skipped],
      arguments: [String(FANOUT_STREAM_MAX_LEN), groupCode, this.step.config, String(holdMs)],
    })) as [number, string[]];
    return { released, answers };
  }
}
