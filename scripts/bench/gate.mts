// Benchmark: the ordering gate's script with the unread step (one Redis call per insert batch), alone.
// Registers one node in the rooms of USERS users (groups of 10), gives every user a cached unread count, then sends
// CALLS gate calls of BATCH messages each, every message in the next group in turn, 9 recipients and its author,
// as the hot path does. Prints the Redis time per message (INFO commandstats, EVALSHA) and the client's wall time,
// then deletes its keys. Asserts nothing.
// Usage: npm run bench:gate -- [batch=20] [calls=300] [redis url=REDIS_URL or redis://127.0.0.1:6379] [--no-step]
// For a count that does not move with the machine's load, run it against a Redis of its own under
// `valgrind --tool=callgrind redis-server --port 6391 --save ''` with `--collect` (zeroes the counters before the
// calls and dumps them after, through callgrind_control): the instructions per message are the dump's total ÷ the
// messages sent.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { createClient } from 'redis';
import type { LuaPiece } from '../../server/src/fanout/lua-script.ts';
import { gateScript } from '../../server/src/fanout/ordering-gate.scripts.ts';
import { fanoutKeys, roomNodesField, routeConfig } from '../../server/src/fanout/fanout-routing.scripts.ts';
import { TOTAL_FIELD } from '../../server/src/modules/chat/unread/unread-counts.scripts.ts';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const COLLECT = process.argv.includes('--collect');
/** The gate alone: the unread step left out, to see its share. */
const NO_STEP = process.argv.includes('--no-step');
const BATCH = Number(args[0] ?? 20);
const CALLS = Number(args[1] ?? 300);
const URL = args[2] ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USERS = 2000;
const GROUP_SIZE = 10;
const GROUPS = USERS / GROUP_SIZE;

// ordering-gate.ts reaches #shared/* (compiled in dist only), so its no-op step comes from the build.
const { NO_RELEASE_STEP } = require('../../dist/server/src/fanout/ordering-gate.js');
// UnreadService is a Nest provider: its decorators need the compiled dist (tsx emits no decorator metadata).
const { UNREAD_RELEASE_STEP } = require('../../dist/server/src/modules/chat/unread/unread.service.js');

const prefix = `bench-gate-${process.pid}:`;
const redis = createClient({ url: URL });
await redis.connect();

const userCode = (u: number) => `u${String(u).padStart(15, '0')}`;
const groupCode = (g: number) => `g${String(g).padStart(15, '0')}`;
const unreadKey = (u: number) => `${prefix}unread:${userCode(u)}`;
const members = (g: number) => Array.from({ length: GROUP_SIZE }, (_, k) => g * GROUP_SIZE + k);

try {
  const node = 'bench-node';
  await redis.xAdd(fanoutKeys.inbox(prefix, node), '*', { created: '1' });
  await redis.set(fanoutKeys.registry(prefix), '0'); // started long ago: no recent-stream copies
  const rooms: Record<string, string> = {};
  for (let u = 0; u < USERS; u++) rooms[`user:${userCode(u)}`] = roomNodesField([node]);
  await redis.hSet(fanoutKeys.rooms(prefix), rooms);
  for (let u = 0; u < USERS; u++) await redis.hSet(unreadKey(u), { [TOTAL_FIELD]: '0' });

  // The step as the app builds it.
  const step: { lua: LuaPiece; config: string } = NO_STEP ? NO_RELEASE_STEP : UNREAD_RELEASE_STEP;
  const sha = await redis.scriptLoad(gateScript(step.lua));
  const seqs = new Array<number>(GROUPS).fill(0);
  let group = 0;
  const call = () => {
    const keys = [`${prefix}fanout:held`];
    const argv = [routeConfig(prefix), step.config];
    for (let m = 0; m < BATCH; m++) {
      group = (group + 7) % GROUPS;
      const seq = ++seqs[group];
      const users = members(group);
      const author = users[seq % GROUP_SIZE];
      const code = groupCode(group);
      const payload = { code: `m${group}-${seq}`, groupCode: code, seq, type: 1, message: `bench message ${seq}`, userCode: userCode(author) };
      const effect = JSON.stringify({
        r: users.filter((u) => u !== author).map((u) => [unreadKey(u), userCode(u)]),
        a: [unreadKey(author), userCode(author)],
      });
      keys.push(`${prefix}fanout:last:${code}`, `${prefix}fanout:pending:${code}`, `${prefix}fanout:skipped:${code}`);
      argv.push(
        code,
        String(seq),
        `${JSON.stringify([...users.map((u) => `user:${userCode(u)}`), `group:${code}`])}\nmessage:new\n${JSON.stringify(payload)}`,
        effect,
      );
    }
    return redis.evalSha(sha, { keys, arguments: argv });
  };

  const evalshaUsec = async () => Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);
  for (let i = 0; i < 10; i++) await call(); // warm-up
  const usecBefore = await evalshaUsec();
  if (COLLECT) execFileSync('callgrind_control', ['-z']);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  const wallMs = performance.now() - started;
  if (COLLECT) execFileSync('callgrind_control', ['-d']);
  const messages = BATCH * CALLS;
  // Every EVALSHA on this Redis counts: run it where nothing else calls scripts.
  const usec = (await evalshaUsec()) - usecBefore;
  console.log(`${messages} messages in ${CALLS} gate calls of ${BATCH}, 9 recipients and the author each`);
  console.log(`  Redis time per message (EVALSHA): ${(usec / messages).toFixed(1)} µs`);
  console.log(`  client wall time per message:     ${((wallMs * 1000) / messages).toFixed(1)} µs`);
} finally {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
}
