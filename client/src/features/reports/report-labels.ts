import type { ReportAction, ReportReason } from '@contracts/rest/reports';
import { tk } from '@/i18n/i18n';

export const REASON_LABELS: Record<ReportReason, string> = {
  spam: tk('REPORTS.REASON_SPAM'),
  scam: tk('REPORTS.REASON_SCAM'),
  harassment: tk('REPORTS.REASON_HARASSMENT'),
  offPlatform: tk('REPORTS.REASON_OFF_PLATFORM'),
  inappropriate: tk('REPORTS.REASON_INAPPROPRIATE'),
  other: tk('REPORTS.REASON_OTHER'),
};

/** What the reporter is told, per action. */
export const OUTCOME_LABELS: Record<ReportAction, string> = {
  dismiss: tk('REPORTS.OUTCOME_DISMISS'),
  delete: tk('REPORTS.OUTCOME_DELETE'),
  warn: tk('REPORTS.OUTCOME_WARN'),
  suspend: tk('REPORTS.OUTCOME_SUSPEND'),
};

export const ACTION_LABELS: Record<ReportAction, string> = {
  dismiss: tk('REPORTS.ACTION_DISMISS'),
  delete: tk('REPORTS.ACTION_DELETE'),
  warn: tk('REPORTS.ACTION_WARN'),
  suspend: tk('REPORTS.ACTION_SUSPEND'),
};
