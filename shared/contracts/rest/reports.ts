/** Reports and blocks (server/src/modules/reports, .../blocks): request values and REST answers. */

/** Why a message or person is reported; a fixed list so the moderation queue can be sorted and counted. */
export const REPORT_REASONS = ['spam', 'scam', 'harassment', 'offPlatform', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What a moderator does with a report: every one is audited and told to the reporter. */
export const REPORT_ACTIONS = ['dismiss', 'delete', 'warn', 'suspend'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export type ReportStatus = 'open' | 'resolved';

export const REPORT_NOTE_MAX = 1000;
/** Messages kept on each side of a reported one, as they were when it was reported. */
export const REPORT_CONTEXT_EACH_SIDE = 3;
export const SUSPEND_DAYS_DEFAULT = 7;
export const SUSPEND_DAYS_MAX = 365;

export interface ReportPerson {
  code: string;
  name: string;
  surname: string;
}

/** A message as the report keeps it. */
export interface ReportedMessage {
  code: string;
  seq: number;
  userCode: string | null;
  userName: string | null;
  message: string;
  createdAt: string;
  deleted: boolean;
  /** one of the marketplace's offer notes: its text is a translation key */
  offerNote: boolean;
}

/** The reporter's view of their report (POST /api/reports, GET /api/reports/mine). */
export interface ReportResponse {
  code: string;
  reason: ReportReason;
  note: string | null;
  reported: ReportPerson;
  groupCode: string | null;
  messageCode: string | null;
  status: ReportStatus;
  /** what the moderator did; null while open */
  action: ReportAction | null;
  createdAt: string;
  resolvedAt: string | null;
}

/** One report in the moderation queue (GET /api/admin/reports). */
export interface ReportQueueItemResponse extends ReportResponse {
  reporter: ReportPerson;
  /** the reported message and those around it, oldest first; empty for a report of a person */
  context: ReportedMessage[];
  /** whether the reported message is deleted now (it may have been after the report) */
  messageDeletedNow: boolean | null;
  resolvedBy: ReportPerson | null;
  /** until when the reported person is suspended now; null when they are not */
  reportedSuspendedUntil: string | null;
}

/** A person whose suspension a moderator lifted. */
export interface UnsuspendedUserResponse extends ReportPerson {
  suspendedUntil: null;
}

export interface BlockedUserResponse {
  code: string;
  name: string;
  surname: string;
  blockedAt: string;
}

/** Socket `report:resolved`, to the reporter: what became of their report. */
export interface ReportResolvedPayload {
  code: string;
  action: ReportAction;
  reason: ReportReason;
}

/** A warning a moderator gave the user (one per pile of reports), named by the pile's oldest report. */
export interface WarningResponse {
  code: string;
  reason: ReportReason;
  at: string;
}

/** Socket `moderation:warning`, to a user a moderator warned after a report; GET /api/reports/warnings/mine lists the same. */
export type ModerationWarningPayload = WarningResponse;
