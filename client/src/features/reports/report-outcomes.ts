import type { ReportAction } from '@contracts/rest/reports';
import { reportsApi } from '@/api/reports.api';

/** Per device: the report outcomes and the warnings the user was told (live or on a later visit). */
const OUTCOMES_TOLD_KEY = 'reports.told';
const WARNINGS_TOLD_KEY = 'reports.warnings.told';
/** Codes remembered as told; older ones fall off (the server lists the latest 50 of each anyway). */
const TOLD_KEPT = 100;

function told(key: string): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

function remember(key: string, code: string): void {
  const list = told(key).filter((c) => c !== code);
  list.push(code);
  localStorage.setItem(key, JSON.stringify(list.slice(-TOLD_KEPT)));
}

/** Remembers that the reporter was told this report's outcome (live or on a later visit), so it is told once. */
export function markTold(code: string): void {
  remember(OUTCOMES_TOLD_KEY, code);
}

/** Remembers that the user was told this warning (`moderation:warning` carries its code), so it is told once. */
export function markWarningTold(code: string): void {
  remember(WARNINGS_TOLD_KEY, code);
}

/** The reporter's resolved reports they have not been told about on this device (they were away), marked told. */
export async function untoldOutcomes(): Promise<{ code: string; action: ReportAction }[]> {
  const seen = new Set(told(OUTCOMES_TOLD_KEY));
  const fresh = (await reportsApi.mine()).filter((r) => r.status === 'resolved' && r.action && !seen.has(r.code));
  for (const r of fresh) markTold(r.code);
  return fresh.map((r) => ({ code: r.code, action: r.action as ReportAction }));
}

/** The warnings moderators gave the user that this device has not told (they were away), marked told. */
export async function untoldWarnings(): Promise<string[]> {
  const seen = new Set(told(WARNINGS_TOLD_KEY));
  const fresh = (await reportsApi.warnings()).filter((w) => !seen.has(w.code));
  for (const w of fresh) markWarningTold(w.code);
  return fresh.map((w) => w.code);
}
