// What the load generator and the socket benchmark both measure with: CPU from /proc, and bounded parallel work.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null when unreadable. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** Busy and total CPU seconds of the whole machine so far (all cores, every process), from /proc/stat; null when unreadable. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = ticks[3] + ticks[4];
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return null;
  }
}

/** What a process is, for the machine's CPU by process: Parley's own, its databases, the generator, the bare relay, or other. */
function processClass(pid: number, self: number): string {
  if (pid === self) return 'generator';
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return 'other';
  }
  if (cmd.includes('dist/server/src/main.js')) return 'server';
  if (cmd.includes('scripts/load/bare-relay.mts')) return 'bare relay';
  if (cmd.includes('dist/workers/src/main.js')) return 'worker';
  if (/^postgres[: ]|\/postgres /.test(cmd)) return 'postgres';
  if (cmd.startsWith('redis-server')) return 'redis';
  if (cmd.startsWith('nginx')) return 'nginx';
  return 'other';
}

/**
 * CPU seconds used so far by every process of the machine, per pid with its class (see processClass), from
 * /proc. Two readings give each kind of process's share of a run (cpuByClass); the kernel's own work that no
 * process is charged for (part of the network stack) is in machineCpu only.
 */
export function processCpu(): Map<number, { cls: string; seconds: number }> {
  const out = new Map<number, { cls: string; seconds: number }>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const seconds = cpuSecondsOf(pid);
    if (seconds !== null) out.set(pid, { cls: processClass(pid, process.pid), seconds });
  }
  return out;
}

/** CPU seconds per class of process between two processCpu readings (a process that started meanwhile counts whole). */
export function cpuByClass(before: ReturnType<typeof processCpu>, after: ReturnType<typeof processCpu>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [pid, { cls, seconds }] of after) out[cls] = (out[cls] ?? 0) + seconds - (before.get(pid)?.seconds ?? 0);
  return out;
}

/** Runs fn over items with at most `limit` in flight, answering in item order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}
