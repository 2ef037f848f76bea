// tsx compiles these scripts through an esbuild service: a child process of ours that ends only when we do.
// Stopped (and reaped) before the launcher exits, so nothing it started outlives it, not even for a moment.
import fs from 'node:fs';
import { waitUntil } from './common.mts';

/** Our child processes running the given program, from /proc (Linux); none elsewhere. */
function childrenRunning(program: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm === program) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Stops tsx's esbuild service and waits (up to 2 s) until it is reaped. */
export async function stopCompilerHelpers(): Promise<void> {
  const pids = childrenRunning('esbuild');
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (pids.length) await waitUntil(async () => pids.every((pid) => !fs.existsSync(`/proc/${pid}`)), 2000, 20);
}
