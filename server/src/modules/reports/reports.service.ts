import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { REPORT_CONTEXT_EACH_SIDE, SUSPEND_DAYS_DEFAULT } from '#shared/contracts/rest/reports';
import { Role } from '#shared/contracts/roles';
import { newCode } from '../../common/codes';
import { conflict, forbidden, notFound, unprocessable } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { moderatedInstanceFilter, moderatesInstance } from '../../common/moderator-scope';
import { ChatAccessService } from '../chat/chat-access.service';
import { ChatMessagesService } from '../chat/chat-messages.service';
import { ModerationService } from '../moderation/moderation.service';
import { CreateReportDto, ReportDto, ReportQueueItemDto, ReportQueuePageDto, ResolveReportDto, UnsuspendedUserDto, WarningDto } from './dto/reports.dto';
import { mapReport, mapReportQueueItem } from './reports.mapper';
import { ReportsRepository } from './reports.repository';

export const REPORT_NOT_FOUND = 'REPORT.NOT_FOUND';
export const REPORT_MESSAGE_NOT_FOUND = 'REPORT.MESSAGE_NOT_FOUND';
export const REPORT_USER_NOT_FOUND = 'REPORT.USER_NOT_FOUND';
export const REPORT_ALREADY_REPORTED = 'REPORT.ALREADY_REPORTED';
export const REPORT_ALREADY_RESOLVED = 'REPORT.ALREADY_RESOLVED';
export const REPORT_NOT_SUSPENDED = 'REPORT.NOT_SUSPENDED';
export const REPORT_CANNOT_SUSPEND = 'REPORT.CANNOT_SUSPEND_MODERATOR';
const MINE_LIMIT = 50;

/**
 * Reports of messages and people. A participant reports what they can read (anyone else, an unknown code and a
 * deleted message get the same 404); each message once per reporter, a person once at a time. Moderators in
 * scope resolve a report once; every resolution is audited and told to the reporter (ReportsListener).
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly access: ChatAccessService,
    private readonly messages: ChatMessagesService,
    private readonly moderation: ModerationService,
    private readonly events: DomainEvents,
  ) {}

  async create(user: AuthUser, dto: CreateReportDto): Promise<ReportDto> {
    const aboutMessage = dto.groupCode !== undefined || dto.messageCode !== undefined;
    if (aboutMessage === (dto.userCode !== undefined)) throw unprocessable(['REPORT.MESSAGE_OR_USER']);
    if (aboutMessage && (!dto.groupCode || !dto.messageCode)) throw unprocessable(['REPORT.MESSAGE_OR_USER']);
    const target = aboutMessage ? await this.reportedMessage(user, dto.groupCode!, dto.messageCode!) : await this.reportedPerson(user, dto.userCode!);
    const code = newCode();
    const stored = await this.reports.insert({
      code,
      instanceId: target.instanceId,
      reporterId: user.id,
      reportedId: target.reportedId,
      groupId: target.groupId,
      messageId: target.messageId,
      reason: dto.reason,
      note: dto.note?.trim() || null,
      context: target.context,
    });
    if (!stored) throw conflict(REPORT_ALREADY_REPORTED);
    return mapReport((await this.reports.byCode(code))!);
  }

  async mine(user: AuthUser): Promise<ReportDto[]> {
    return (await this.reports.mine(user.id, MINE_LIMIT)).map(mapReport);
  }

  async warnings(user: AuthUser): Promise<WarningDto[]> {
    return (await this.reports.warningsOf(user.id, MINE_LIMIT)).map((w) => ({ code: w.code, reason: w.reason, at: new Date(w.at).toISOString() }));
  }

  async queue(moderator: AuthUser, status: 'open' | 'resolved', page: number, pageSize: number): Promise<ReportQueuePageDto> {
    const rows = await this.reports.queue(moderatedInstanceFilter(moderator), status, (page - 1) * pageSize, pageSize + 1);
    return { reports: rows.slice(0, pageSize).map(mapReportQueueItem), page, pageSize, hasMore: rows.length > pageSize };
  }

  /**
   * Resolves an open report in the moderator's scope: dismiss, delete the reported message (audited as a
   * moderator's delete too), warn or suspend the reported person. The report is claimed first, so of two
   * moderators acting at once one wins and the other gets 409 with nothing done. The other open reports of the
   * same message (or person) are closed with it, each audited and told to its reporter.
   */
  async resolve(moderator: AuthUser, code: string, dto: ResolveReportDto): Promise<ReportQueueItemDto> {
    const report = await this.reports.byCode(code);
    if (!report || !moderatesInstance(moderator, report.instance_id)) throw notFound(REPORT_NOT_FOUND);
    if (report.status !== 'open') throw conflict(REPORT_ALREADY_RESOLVED);
    if (dto.action === 'delete' && (!report.message_code || !report.group_code)) throw unprocessable(['REPORT.NO_MESSAGE']);
    if (dto.action !== 'suspend' && dto.days !== undefined) throw unprocessable(['REPORT.DAYS_ONLY_WITH_SUSPEND']);
    if (dto.action === 'suspend' && (report.reported_role >= Role.InstanceAdmin || report.reported_id === moderator.id)) {
      throw forbidden(REPORT_CANNOT_SUSPEND);
    }
    const pile = await this.reports.resolvePile(code, dto.action, moderator.id);
    if (!pile.some((r) => r.code === code)) throw conflict(REPORT_ALREADY_RESOLVED);
    const days = dto.action === 'suspend' ? (dto.days ?? SUSPEND_DAYS_DEFAULT) : undefined;
    if (dto.action === 'delete') await this.messages.delete(moderator, report.group_code!, report.message_code!);
    if (days !== undefined) await this.reports.suspend(report.reported_id, days);
    const at = new Date().toISOString();
    for (const closed of pile) {
      await this.moderation.record({
        instanceId: report.instance_id,
        actorId: moderator.id,
        action: `report.${dto.action}`,
        groupId: report.group_id,
        messageCode: report.message_code ?? undefined,
        details: { report: closed.code, reason: closed.reason, reported: report.reported_code, reporter: closed.reporterCode, ...(days ? { days } : {}) },
      });
      await this.events.emit('report.resolved', {
        reporterCode: closed.reporterCode,
        reportedCode: report.reported_code,
        payload: { code: closed.code, action: dto.action, reason: closed.reason },
        // One warning for the pile, not one per report, named by its oldest report as GET warnings/mine names it.
        warnsReported: closed.code === pile[0].code,
        at,
      });
    }
    return mapReportQueueItem((await this.reports.byCode(code))!);
  }

  /**
   * Lifts a running suspension early: the user signs in again at once. Someone outside the moderator's scope is
   * the same 404 as an unknown code; one not suspended (or lifted meanwhile) 409, nothing changed.
   */
  async unsuspend(moderator: AuthUser, userCode: string): Promise<UnsuspendedUserDto> {
    const target = await this.reports.suspensionOf(userCode);
    if (!target || !moderatesInstance(moderator, target.instanceId)) throw notFound(REPORT_USER_NOT_FOUND);
    if (!target.until || !(await this.reports.unsuspend(target.id))) throw conflict(REPORT_NOT_SUSPENDED);
    await this.moderation.record({
      instanceId: target.instanceId,
      actorId: moderator.id,
      action: 'user.unsuspend',
      groupId: null,
      details: { user: userCode, until: new Date(target.until).toISOString() },
    });
    return { code: userCode, name: target.name, surname: target.surname, suspendedUntil: null };
  }

  private async reportedMessage(user: AuthUser, groupCode: string, messageCode: string) {
    // Whoever can't read the chat learns nothing from the answer: the same 404 as an unknown message.
    const group = await this.access.asReader(user, groupCode).then(
      (a) => a.group,
      () => null,
    );
    const row = group && (await this.reports.messageByCode(group.id, messageCode));
    if (!group || !row || row.deleted) throw notFound(REPORT_MESSAGE_NOT_FOUND);
    if (!row.authorId) throw unprocessable(['REPORT.SYSTEM_MESSAGE']);
    if (row.authorId === user.id) throw unprocessable(['REPORT.OWN_MESSAGE']);
    const context = (await this.reports.context(group.id, row.seq, REPORT_CONTEXT_EACH_SIDE)).map(({ authorId: _a, ...m }) => m);
    return { instanceId: group.instanceId, reportedId: row.authorId, groupId: group.id, messageId: row.id, context };
  }

  private async reportedPerson(user: AuthUser, userCode: string) {
    if (userCode === user.code) throw unprocessable(['REPORT.SELF']);
    const target = await this.reports.userInInstance(user.instanceId, userCode);
    if (!target) throw notFound(REPORT_USER_NOT_FOUND);
    return { instanceId: user.instanceId, reportedId: target.id, groupId: null, messageId: null, context: [] };
  }
}
