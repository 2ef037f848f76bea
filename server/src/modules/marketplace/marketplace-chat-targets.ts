import { Injectable, OnModuleInit } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatGroupType } from '#shared/contracts/chat';
import { ChatTarget, ChatTargets } from '../chat/chat-targets';
import { JobsRepository } from './jobs.repository';
import { partyOf, seesJob } from './marketplace-access';
import { OffersRepository } from './offers.repository';

/**
 * The marketplace's chat targets. A job's FAQ chat is open to everyone who sees the job; a job's chat is
 * made only by its customer (its owner), with the people they choose, and handed only to its participants;
 * an offer's chat is made with the offer (provider and customer) and is only ever theirs.
 */
@Injectable()
export class MarketplaceChatTargets implements OnModuleInit {
  constructor(
    private readonly targets: ChatTargets,
    private readonly jobs: JobsRepository,
    private readonly offers: OffersRepository,
  ) {}

  onModuleInit(): void {
    this.targets.register(ChatGroupType.JobFaq, (user, code) => this.job(user, code, true));
    this.targets.register(ChatGroupType.Job, (user, code) => this.job(user, code, false, true));
    this.targets.register(ChatGroupType.JobOffer, (user, code) => this.offer(user, code));
  }

  /** `ownerCreates`: only the job's customer may make its chat (and so choose who is in it). */
  private async job(user: AuthUser, code: string, openToAll: boolean, ownerCreates = false): Promise<ChatTarget | null> {
    const job = await this.jobs.findByCode(code);
    if (!job || !seesJob(user, job)) return null;
    return { instanceId: job.instance_id, ownerId: job.customer_id, openToAll, mayCreate: !ownerCreates || user.id === job.customer_id };
  }

  private async offer(user: AuthUser, code: string): Promise<ChatTarget | null> {
    const offer = await this.offers.findByCode(code, null);
    if (!offer || partyOf(user, offer) === null) return null;
    return { instanceId: offer.instance_id, ownerId: offer.provider_id, openToAll: false, mayCreate: false };
  }
}
