// The fault suite's checks and its table: one row per fault, then every failed check by name.
import type { Row } from './types.mts';

export interface Check {
  fault: string;
  what: string;
  ok: boolean;
  detail: unknown;
}

/** Pushes in flight at a worker kill must arrive within this long of the kill. */
export const PUSH_WITHIN_MS = 15_000;

const seconds = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'never');

export function checksOf(rows: Row[], { stray, burstMin }: { stray: string[]; burstMin: number }): Check[] {
  const checks: Check[] = [];
  const check = (fault: string, what: string, ok: boolean, detail: unknown) => checks.push({ fault, what, ok, detail });
  for (const r of rows) {
    check(r.fault, 'every send acknowledged', r.acked === r.sends, `${r.acked}/${r.sends}`);
    check(r.fault, '0 lost', r.lost === 0, r.lost);
    check(r.fault, '0 duplicated', r.duplicated === 0, r.duplicated);
    check(r.fault, '0 out of order', r.outOfOrder === 0, r.outOfOrder);
    check(r.fault, 'quiet chats delivered within 10 s', r.liveMissed === 0, `${r.liveMissed} of ${r.quietProbes} missed`);
    check(r.fault, 'pushed unread counts equal REST', r.unreadMismatches === 0, `${r.unreadMismatches} users differ`);
    check(r.fault, 'recovered', Number.isFinite(r.recoveryMs), seconds(r.recoveryMs));
    check(r.fault, '0 unexpected exits', r.exits.length === 0, r.exits.join('; '));
    check(r.fault, '0 unhandled rejections logged', r.unhandled.length === 0, r.unhandled.slice(0, 3).join('; '));
    const bad = Object.keys(r.healthCodes).filter((c) => !['0', '200', '503'].includes(c));
    check(r.fault, 'health only 200 or 503', bad.length === 0, JSON.stringify(r.healthCodes));
    if (r.pushDelaysMs)
      check(
        r.fault,
        `pushes in flight delivered within ${PUSH_WITHIN_MS / 1000} s`,
        r.pushDelaysMs.every((d) => d <= PUSH_WITHIN_MS),
        r.pushDelaysMs.map(seconds).join(', '),
      );
    if (r.burst !== null) check(r.fault, `${burstMin}+ messages while offline`, r.burst >= burstMin, r.burst);
  }
  check('all', 'every Redis key under the prefix', stray.length === 0, stray.slice(0, 5).join(', '));
  return checks;
}

export function printTable(rows: Row[], checks: Check[], stray: string[]): void {
  const head = ['fault', 'sends', 'acked', 'lost', 'dup', 'order', 'live-missed', 'unread≠', 'recovery', 'exits', 'unhandled', 'health', 'push delays'];
  const body = rows.map((r) =>
    [
      r.title,
      r.sends,
      r.acked,
      r.lost,
      r.duplicated,
      r.outOfOrder,
      `${r.liveMissed}/${r.quietProbes}`,
      r.unreadMismatches,
      seconds(r.recoveryMs),
      r.exits.length,
      r.unhandled.length,
      Object.entries(r.healthCodes)
        .map(([code, n]) => `${code === '0' ? 'none' : code}×${n}`)
        .join(' '),
      r.pushDelaysMs ? r.pushDelaysMs.map((d) => (d / 1000).toFixed(1)).join(' ') + ' s' : r.burst !== null ? `(burst ${r.burst})` : '-',
    ].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log('');
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  body.forEach((row) => console.log(line(row)));
  console.log(`\nRedis keys outside the prefix: ${stray.length}`);
  const failed = checks.filter((c) => !c.ok);
  if (!failed.length) {
    console.log('\nall checks passed');
    return;
  }
  console.log(`\n${failed.length} check(s) failed:`);
  for (const c of failed) console.log(`  ${c.fault}: ${c.what} (${c.detail})`);
  for (const r of rows) for (const text of [...r.exits, ...r.unhandled].slice(0, 5)) console.log(`  ${r.fault}: ${text}`);
  for (const r of rows) {
    for (const d of r.unreadDiffs.slice(0, 3)) console.log(`  ${r.fault}: user ${d.user} was last pushed unread ${d.pushed}, REST says ${d.rest}`);
  }
}
