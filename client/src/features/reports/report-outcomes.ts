import type { ReportAction } from '@contracts/rest/reports';
import { reportsApi } from '@/api/reports.api';

const TOLD_KEY = 'reports.told';
/** Outcomes remembered as told; older ones fall off (GET /api/reports/mine lists the latest 50 anyway). */
const TOLD_KEPT = 100;

function told(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(TOLD_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** Remembers that the reporter was told this report's outcome (live or on a later visit), so it is told once. */
export function markTold(code: string): void {
  const list = told().filter((c) => c !== code);
  list.push(code);
  localStorage.setItem(TOLD_KEY, JSON.stringify(list.slice(-TOLD_KEPT)));
}

/** The reporter's resolved reports they have not been told about on this device (they were away), marked told. */
export async function untoldOutcomes(): Promise<{ code: string; action: ReportAction }[]> {
  const seen = new Set(told());
  const fresh = (await reportsApi.mine()).filter((r) => r.status === 'resolved' && r.action && !seen.has(r.code));
  for (const r of fresh) markTold(r.code);
  return fresh.map((r) => ({ code: r.code, action: r.action as ReportAction }));
}
