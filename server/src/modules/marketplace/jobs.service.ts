import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatGroupType, ParticipantRole } from '#shared/contracts/chat';
import { newCode } from '../../common/codes';
import { pageOf } from '../../common/dto/page-query.dto';
import { conflict, forbidden, notFound } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { ChatGroupsRepository } from '../chat/chat-groups.repository';
import { ChatGroupsService } from '../chat/chat-groups.service';
import { ChatGroupDto } from '../chat/dto/chat-response.dto';
import { JobDto, JobListQueryDto, JobPageDto, JOB_PAGE_SIZE, SaveJobDto } from './dto/job.dto';
import { checkDeadline, checkVersions } from './job-rules';
import { mapJob } from './job.mapper';
import { JobRow, JobsRepository } from './jobs.repository';
import { seesJob } from './marketplace-access';
import type { JobMachineTranslationResponse } from '#shared/contracts/translation';
import { MachineTranslationService } from '../translation/machine-translation.service';

@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly groups: ChatGroupsRepository,
    private readonly chat: ChatGroupsService,
    private readonly events: DomainEvents,
    private readonly translation: MachineTranslationService,
  ) {}

  /**
   * A job without a version in `lang`, machine-translated from its default version for the reader: answered,
   * never saved as one of the customer's versions. A job that has a version in `lang` is 409 (read that one).
   */
  async machineTranslation(user: AuthUser, code: string, lang: string): Promise<JobMachineTranslationResponse> {
    const job = await this.visibleJob(user, code);
    const versions = await this.jobs.versions([job.id]);
    if (versions.some((v) => v.lang === lang)) throw conflict('JOB.VERSION_EXISTS');
    const source = versions.find((v) => v.is_default) ?? versions[0];
    if (!source) throw notFound('JOB.NOT_FOUND');
    const { texts, engine } = await this.translation.translate([source.title, source.description], source.lang, lang);
    return { lang, from: source.lang, title: texts[0], description: texts[1], engine, machine: true };
  }

  /** A job the caller may see, else the same 404 as for a code that doesn't exist. */
  async visibleJob(user: AuthUser, code: string): Promise<JobRow> {
    const job = await this.jobs.findByCode(code);
    if (!job || !seesJob(user, job)) throw notFound('JOB.NOT_FOUND');
    return job;
  }

  /** A job the caller owns (its customer); others who see it get 403. */
  async ownJob(user: AuthUser, code: string): Promise<JobRow> {
    const job = await this.visibleJob(user, code);
    if (job.customer_id !== user.id) throw forbidden('JOB.NOT_YOURS');
    return job;
  }

  async list(user: AuthUser, query: JobListQueryDto): Promise<JobPageDto> {
    const { page, pageSize } = pageOf(query, JOB_PAGE_SIZE);
    const filter = { customerId: query.mine === 'true' ? user.id : null, titleContains: query.q?.trim() || null };
    const rows = await this.jobs.list(user.instanceId, filter, (page - 1) * pageSize, pageSize + 1);
    const shown = rows.slice(0, pageSize);
    const ids = shown.map((j) => j.id);
    const [versions, counts] = await Promise.all([this.jobs.versions(ids), this.jobs.offerCounts(ids)]);
    return { jobs: shown.map((j) => mapJob(j, versions, counts, query.lang)), page, pageSize, hasMore: rows.length > pageSize };
  }

  async get(user: AuthUser, code: string, lang?: string): Promise<JobDto> {
    return this.view(await this.visibleJob(user, code), lang);
  }

  async create(user: AuthUser, dto: SaveJobDto, lang?: string): Promise<JobDto> {
    const versions = checkVersions(dto.versions);
    const deadline = checkDeadline(dto.deadline);
    const code = newCode();
    await this.jobs.create({ code, instanceId: user.instanceId, customerId: user.id, deadline, acceptingOffers: dto.acceptingOffers ?? true }, versions);
    return this.get(user, code, lang);
  }

  /** The customer replaces the job: deadline, versions and whether it takes offers. */
  async update(user: AuthUser, code: string, dto: SaveJobDto, lang?: string): Promise<JobDto> {
    const job = await this.ownJob(user, code);
    const versions = checkVersions(dto.versions);
    const deadline = dto.deadline === undefined ? job.deadline : checkDeadline(dto.deadline, job.deadline);
    await this.jobs.update(job.id, { deadline, acceptingOffers: dto.acceptingOffers ?? job.accepting_offers }, versions);
    const saved = await this.visibleJob(user, code);
    const [stored, counts] = await Promise.all([this.jobs.versions([saved.id]), this.jobs.offerCounts([saved.id])]);
    // Everyone of the instance who may have the job on screen (the list, its view, an offer form) gets it live.
    void this.events.emit('job.updated', { instanceId: saved.instance_id, job: mapJob(saved, stored, counts) });
    return mapJob(saved, stored, counts, lang);
  }

  /** The job's FAQ chat, created on first use; everyone who sees the job may join it, and does by asking for it. */
  async faq(user: AuthUser, code: string): Promise<ChatGroupDto> {
    const job = await this.visibleJob(user, code);
    let group = await this.groups.findByTarget(job.instance_id, ChatGroupType.JobFaq, job.code);
    if (!group) {
      const people = [...new Set([job.customer_id, user.id])];
      const result = await this.groups.create(
        {
          code: newCode(),
          instanceId: job.instance_id,
          type: ChatGroupType.JobFaq,
          name: null,
          subtitle: null,
          targetId: job.code,
          directKey: null,
          createdBy: user.id,
        },
        people.map((userId) => ({ userId, role: userId === job.customer_id ? ParticipantRole.Owner : ParticipantRole.Member })),
      );
      group = result.group;
      if (result.created) await this.changed(group.id, group.code, 'created');
    }
    if (!(await this.groups.findParticipant(group.id, user.id))) {
      // The customer too, in case someone opened the FAQ target through the chat API first.
      const added = await this.groups.addParticipants(group.id, [...new Set([user.id, job.customer_id])]);
      if (added.length) await this.changed(group.id, group.code, 'participants');
    }
    return this.chat.get(user, group.code);
  }

  private async view(job: JobRow, lang?: string): Promise<JobDto> {
    const [versions, counts] = await Promise.all([this.jobs.versions([job.id]), this.jobs.offerCounts([job.id])]);
    return mapJob(job, versions, counts, lang);
  }

  private async changed(groupId: string, groupCode: string, change: 'created' | 'participants'): Promise<void> {
    this.events.emit('group.changed', { groupCode, change, participantCodes: await this.groups.participantCodes(groupId) });
  }
}
