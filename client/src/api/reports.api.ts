import type {
  BlockedUserResponse,
  ReportAction,
  ReportQueueItemResponse,
  ReportReason,
  ReportResponse,
  ReportStatus,
  UnsuspendedUserResponse,
  WarningResponse,
} from '@contracts/rest/reports';
import { http } from './http';

export type { ReportAction, ReportReason, ReportStatus };
export type Report = ReportResponse;
export type ReportQueueItem = ReportQueueItemResponse;
export type BlockedUser = BlockedUserResponse;

/** A message (groupCode + messageCode) or a person (userCode). */
export type ReportTarget = { groupCode: string; messageCode: string } | { userCode: string };

export const reportsApi = {
  create: (target: ReportTarget, reason: ReportReason, note: string) =>
    http.post<Report>('/api/reports', { ...target, reason, ...(note.trim() ? { note: note.trim() } : {}) }, { handleErrors: false }),
  mine: () => http.get<Report[]>('/api/reports/mine', { cache: false }),
  warnings: () => http.get<WarningResponse[]>('/api/reports/warnings/mine', { cache: false }),
  queue: (status: ReportStatus, page = 1) =>
    http.get<{ reports: ReportQueueItem[]; hasMore: boolean }>(`/api/admin/reports?status=${status}&page=${page}`, { cache: false }),
  resolve: (code: string, action: ReportAction) =>
    http.post<ReportQueueItem>(`/api/admin/reports/${encodeURIComponent(code)}/resolve`, { action }, { handleErrors: false }),
  unsuspend: (userCode: string) =>
    http.post<UnsuspendedUserResponse>(`/api/admin/reports/users/${encodeURIComponent(userCode)}/unsuspend`, {}, { handleErrors: false }),
  blocks: () => http.get<BlockedUser[]>('/api/blocks', { cache: false }),
  block: (userCode: string) => http.put<void>(`/api/blocks/${encodeURIComponent(userCode)}`),
  unblock: (userCode: string) => http.delete<void>(`/api/blocks/${encodeURIComponent(userCode)}`),
};
