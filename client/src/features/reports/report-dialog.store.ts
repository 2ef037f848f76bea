import { proxy } from 'valtio';
import type { ReportTarget } from '@/api/reports.api';

/** The report being written (one at a time, app-wide), and whom it is about, for the dialog's title. */
export const reportDialogStore = proxy<{ target: ReportTarget | null; name: string }>({ target: null, name: '' });

export function openReport(target: ReportTarget, name: string): void {
  reportDialogStore.target = target;
  reportDialogStore.name = name;
}

export function closeReport(): void {
  reportDialogStore.target = null;
}
