// Where a server's CPU time went, from a V8 CPU profile taken under load:
//   SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" AUTH_RATE_LIMIT_IP=1000000 npm start   (then the load, then Ctrl-C)
//   npm run profile:summary -- prof/CPU.*.cpuprofile [--last 35] [--skip-end 3] [--per-message-us 420]
// Only the samples of the last `--last` seconds before the profile's end (minus `--skip-end`) count: the load's
// measured window, not start-up or the set-up of users. Each sample goes to the first part of the message path
// its stack shows (the rules below, in order); idle time is left out. With --per-message-us (the load
// generator's "server CPU per message"), each share is also given in µs per message.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A frame as `function@package-or-file`: node_modules/<package>/… becomes the package, dist/… the source file. */
function frameName({ functionName, url }: ProfileNode['callFrame']): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  const file = pkg ?? url.replace(/^.*\/dist\//, '').replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'}@${file}`;
}

const SYSCALL_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String']);

/** The parts of the message path, in the order a sample is tested against them. */
const PARTS: { name: string; test: (leaf: string, stack: string[]) => boolean }[] = [
  { name: 'kernel: socket writes (to clients, Redis, Postgres)', test: (leaf) => SYSCALL_WRITES.has(leaf.split('@')[0]) && leaf.endsWith('@') },
  { name: 'garbage collection', test: (leaf) => leaf.startsWith('(garbage collector)') },
  { name: 'send: validating the event (DTO rules)', test: (_, s) => s.some((f) => f.startsWith('validatePayload@')) },
  { name: 'Postgres client (query, parse rows)', test: (_, s) => s.some((f) => /@pg(-protocol|-pool|-types)?$/.test(f)) },
  { name: 'Redis client (commands, replies)', test: (_, s) => s.some((f) => f.endsWith('@@redis/client')) },
  {
    name: 'fan-out: reading the stream or inbox, writing to sockets',
    test: (_, s) => s.some((f) => /@server\/src\/fanout\/(fanout-publisher|local-delivery|inbox-reader|socket-write-batch)\.js$/.test(f)),
  },
  {
    name: 'send: handler, insert batching, mapping, domain events',
    test: (_, s) => s.some((f) => /@server\/src\/(realtime\/realtime\.gateway|modules\/chat\/|realtime\/chat-fanout|common\/events)/.test(f)),
  },
  {
    name: 'Socket.IO / engine.io / ws (receiving events, acks)',
    test: (_, s) => s.some((f) => /@(socket\.io|engine\.io|ws|socket\.io-parser|engine\.io-parser)$/.test(f)),
  },
  { name: 'other', test: () => true },
];

const USAGE = 'usage: npm run profile:summary -- <file.cpuprofile> [--last s] [--skip-end s] [--per-message-us n]';

function parseArgs(argv: string[]) {
  const opts = { file: '', last: 35, skipEnd: 3, perMessageUs: 0 };
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a number ≥ 0\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--last') opts.last = number(arg, argv[++i]);
    else if (arg === '--skip-end') opts.skipEnd = number(arg, argv[++i]);
    else if (arg === '--per-message-us') opts.perMessageUs = number(arg, argv[++i]);
    else if (arg.startsWith('-') || opts.file) throw new Error(`unknown argument ${arg}\n${USAGE}`);
    else opts.file = arg;
  }
  if (!opts.file) throw new Error(USAGE);
  return opts;
}

/** The profile in the file, or an error that says what is wrong with it. */
function readProfile(file: string): Profile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  let profile: Partial<Profile>;
  try {
    profile = JSON.parse(text) as Partial<Profile>;
  } catch (err) {
    throw new Error(`${file} is not a V8 CPU profile (not JSON)`, { cause: err });
  }
  if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples) || !Array.isArray(profile.timeDeltas)) {
    throw new Error(`${file} is not a V8 CPU profile (no nodes, samples and timeDeltas)`);
  }
  return profile as Profile;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const profile = readProfile(opts.file);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const from = profile.endTime - (opts.last + opts.skipEnd) * 1e6;
  const to = profile.endTime - opts.skipEnd * 1e6;

  const counts = new Map<string, number>(PARTS.map((p) => [p.name, 0]));
  let busy = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < from || at > to) return;
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === '(idle)') return void idle++;
    busy++;
    const stack: string[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) stack.push(frameName(byId.get(n)!.callFrame));
    const part = PARTS.find((p) => p.test(stack[0], stack))!;
    counts.set(part.name, counts.get(part.name)! + 1);
  });

  console.log(`${opts.file}: ${busy} busy samples (${((100 * busy) / Math.max(busy + idle, 1)).toFixed(0)} % of the window)`);
  for (const [name, n] of counts) {
    const share = n / Math.max(busy, 1);
    const us = opts.perMessageUs ? `  ${(share * opts.perMessageUs).toFixed(0).padStart(4)} µs/msg` : '';
    console.log(`${(100 * share).toFixed(1).padStart(5)} %${us}  ${name}`);
  }
}

try {
  main();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
