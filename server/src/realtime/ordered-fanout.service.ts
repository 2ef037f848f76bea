import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { userRoom } from '../contracts/socket-events';
import { RedisService } from '../redis/redis.service';
import { SocketEmitter } from './socket-emitter.service';
import { SocketWriteBatch } from './socket-write-batch';
import { UNREAD_TOTAL_FIELD, UNREAD_TTL_MS } from './unread-cache.service';

/** How long a message may wait for its predecessor before it is let through anyway (the client syncs the gap). */
const HOLD_MS = 2000;
const STREAM_MAX_LEN = 100_000;
const READ_BLOCK_MS = 1000;

interface Delivery {
  rooms: string[];
  event: 'message:new' | 'unread:count';
  payload: unknown;
}

/** One stream entry: deliveries that every node makes to its own sockets. */
type FanoutEntry = Delivery[];

/**
 * One call per message. Gate per group: a message is appended to the shared fan-out stream only after every lower seq of its group,
 * so the stream holds each group's messages in seq order. A message whose predecessor hasn't arrived is held;
 * one arriving after the sweeper gave up on it is let through rather than lost.
 */
const GATE = `
local lastKey, pendingKey, heldKey, stream = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local seq, entry, now, maxLen, group, unreadTtl, roomPrefix =
  tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]

-- Recipients' cached unread counts (KEYS[5..], codes in ARGV[8..]): one more in this group; a missing
-- cache is reported back so the caller fills it from Postgres.
local counts, cold = {}, {}
for i = 5, #KEYS do
  local code = ARGV[i + 3]
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local n = redis.call('HINCRBY', KEYS[i], group, 1)
    local total = redis.call('HINCRBY', KEYS[i], '${UNREAD_TOTAL_FIELD}', 1)
    redis.call('PEXPIRE', KEYS[i], unreadTtl)
    counts[#counts + 1] = { rooms = { roomPrefix .. code }, event = 'unread:count', payload = { total = total, groups = { [group] = n } } }
  else
    cold[#cold + 1] = code
  end
end
if #counts > 0 then
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', cjson.encode(counts))
end

-- No record (a new group, or one idle past the key's life): wait for seq 1, and let the sweeper release a
-- later seq after HOLD_MS if its predecessors were published before the record was lost.
local last = tonumber(redis.call('GET', lastKey)) or 0
if seq <= last then
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', entry)
  return cold
end
if seq > last + 1 then
  redis.call('HSET', pendingKey, tostring(seq), entry)
  redis.call('EXPIRE', pendingKey, 3600)
  redis.call('ZADD', heldKey, 'NX', now, group)
  return cold
end
redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', entry)
last = seq
while true do
  local following = redis.call('HGET', pendingKey, tostring(last + 1))
  if not following then break end
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', following)
  redis.call('HDEL', pendingKey, tostring(last + 1))
  last = last + 1
end
redis.call('SET', lastKey, last, 'EX', 604800)
if redis.call('HLEN', pendingKey) == 0 then redis.call('ZREM', heldKey, group) end
return cold`;

/** Lets a stalled group's held messages through in seq order, skipping the gap. */
const FLUSH = `
local lastKey, pendingKey, heldKey, stream = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local maxLen, group = ARGV[1], ARGV[2]
local seqs = redis.call('HKEYS', pendingKey)
table.sort(seqs, function(a, b) return tonumber(a) < tonumber(b) end)
local last = tonumber(redis.call('GET', lastKey)) or 0
for _, s in ipairs(seqs) do
  redis.call('XADD', stream, 'MAXLEN', '~', maxLen, '*', 'e', redis.call('HGET', pendingKey, s))
  if tonumber(s) > last then last = tonumber(s) end
end
redis.call('DEL', pendingKey)
redis.call('SET', lastKey, last, 'EX', 604800)
redis.call('ZREM', heldKey, group)
return #seqs`;

/**
 * Chat messages reach sockets in seq order per group, from every node. Concurrent sends commit in one order
 * but their fan-out could run in another (and on different nodes); so messages pass a per-group gate in Redis
 * into one shared stream, and every node reads that stream and delivers to its own sockets.
 */
@Injectable()
export class OrderedFanoutService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OrderedFanoutService.name);
  private reader?: RedisClientType;
  private running = false;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    private readonly emitter: SocketEmitter,
  ) {}

  private get stream(): string {
    return this.redis.key('fanout', 'stream');
  }

  private keys(groupCode: string): string[] {
    return [this.redis.key('fanout', 'last', groupCode), this.redis.key('fanout', 'pending', groupCode), this.redis.key('fanout', 'held'), this.stream];
  }

  async onModuleInit(): Promise<void> {
    this.reader = this.redis.client.duplicate() as RedisClientType;
    this.reader.on('error', (err: Error) => this.logger.warn(`fan-out reader: ${err.message}`));
    await this.reader.connect();
    this.running = true;
    void this.read();
    this.sweeper = setInterval(() => void this.flushStalled().catch(() => undefined), HOLD_MS / 2);
    this.sweeper.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    clearInterval(this.sweeper);
    // The blocking read returns within READ_BLOCK_MS; closing the connection ends it at once.
    await this.reader?.destroy();
  }

  /**
   * Delivers a group's message to these rooms on every node, after all its group's lower seqs, and pushes the
   * recipients' new unread counts, in one Redis call. Answers the recipients whose counts weren't cached.
   */
  async publishMessage(
    groupCode: string,
    seq: number,
    rooms: string[],
    payload: unknown,
    recipients: { code: string; unreadKey: string }[],
  ): Promise<string[]> {
    const entry: FanoutEntry = [{ rooms, event: 'message:new', payload }];
    return (await this.redis.client.eval(GATE, {
      keys: [...this.keys(groupCode), ...recipients.map((r) => r.unreadKey)],
      arguments: [
        String(seq),
        JSON.stringify(entry),
        String(Date.now()),
        String(STREAM_MAX_LEN),
        groupCode,
        String(UNREAD_TTL_MS),
        userRoom(''),
        ...recipients.map((r) => r.code),
      ],
    })) as string[];
  }

  /** Deliveries with no order to keep (unread counts), in one stream entry however many users they reach. */
  async publishBatch(deliveries: Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.redis.client.xAdd(this.stream, '*', { e: JSON.stringify(deliveries) }, {
      TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: STREAM_MAX_LEN },
    });
  }

  private async read(): Promise<void> {
    let lastId = '$';
    while (this.running && this.reader?.isOpen) {
      try {
        const reply = await this.reader.xRead({ key: this.stream, id: lastId }, { BLOCK: READ_BLOCK_MS, COUNT: 500 });
        const io = this.emitter.io;
        const writes = io ? new SocketWriteBatch(io.of('/')) : null;
        try {
          for (const batch of (reply as { messages: { id: string; message: Record<string, string> }[] }[] | null) ?? []) {
            for (const { id, message } of batch.messages) {
              lastId = id;
              this.deliver(message.e, writes);
            }
          }
        } finally {
          writes?.release();
        }
      } catch (err) {
        if (!this.running) return;
        this.logger.warn(`fan-out read failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  private deliver(raw: string | undefined, writes: SocketWriteBatch | null): void {
    if (!raw) return;
    // Every node reads the stream, so each delivers only to its own sockets.
    for (const { rooms, event, payload } of JSON.parse(raw) as FanoutEntry) {
      writes?.hold(rooms);
      this.emitter.io?.local.to(rooms).emit(event, payload as never);
    }
  }

  private async flushStalled(): Promise<void> {
    const stalled = await this.redis.client.zRangeByScore(this.redis.key('fanout', 'held'), 0, Date.now() - HOLD_MS);
    for (const groupCode of stalled) {
      const released = await this.redis.client.eval(FLUSH, { keys: this.keys(groupCode), arguments: [String(STREAM_MAX_LEN), groupCode] });
      this.logger.warn(`fan-out of ${groupCode}: let ${String(released)} held message(s) past a missing seq`);
    }
  }
}
