import { ReportDto, ReportQueueItemDto } from './dto/reports.dto';
import { ReportRow } from './reports.repository';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function mapReport(r: ReportRow): ReportDto {
  return {
    code: r.code,
    reason: r.reason,
    note: r.note,
    reported: { code: r.reported_code, name: r.reported_name, surname: r.reported_surname },
    groupCode: r.group_code,
    messageCode: r.message_code,
    status: r.status,
    action: r.action,
    createdAt: new Date(r.created_at).toISOString(),
    resolvedAt: iso(r.resolved_at),
  };
}

export function mapReportQueueItem(r: ReportRow): ReportQueueItemDto {
  return {
    ...mapReport(r),
    reporter: { code: r.reporter_code, name: r.reporter_name, surname: r.reporter_surname },
    context: r.context,
    messageDeletedNow: r.message_deleted_now,
    reportedSuspendedUntil: iso(r.reported_suspended_until),
    resolvedBy: r.resolver_code ? { code: r.resolver_code, name: r.resolver_name ?? '', surname: r.resolver_surname ?? '' } : null,
  };
}
