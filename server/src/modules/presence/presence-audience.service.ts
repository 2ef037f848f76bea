import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { PresencePayload } from '#shared/contracts/socket-events';
import { PresenceService } from '#shared/presence/presence.service';
import { moderatorScope, moderatorScopeParam } from '../../common/moderator-scope';
import { PresenceAudienceRepository } from './presence-audience.repository';

/**
 * How long a yes is kept. A no is never kept: the screen that asks right after an offer is made or a chat is
 * started (the customer's offers list, the new chat) must get the yes at once, and it does not ask twice.
 */
const ALLOWED_MS = 60_000;
const MAX_ENTRIES = 100_000;

/**
 * Who may see whose exact presence (online, last activity, away minutes): the people one deals with — who share a
 * chat (not a job's FAQ) or an offer with them — and moderators for the people in their scope. Everyone else gets
 * nothing, as if unknown. Every chat screen asks (presence:watch), so a yes is cached per viewer and user, in this
 * process, for a minute.
 */
@Injectable()
export class PresenceAudience {
  /** `viewerId code` → until when the yes holds */
  private readonly allowedUntil = new Map<string, number>();

  constructor(
    private readonly repo: PresenceAudienceRepository,
    private readonly presence: PresenceService,
  ) {}

  /** Statuses of those among the codes the viewer may see, in the order asked; the rest are absent. */
  async statusesFor(viewer: AuthUser, userCodes: string[]): Promise<PresencePayload[]> {
    const visible = await this.visible(viewer, userCodes);
    return this.presence.statuses([...new Set(userCodes)].filter((c) => visible.has(c)));
  }

  /** Those among the codes whose presence the viewer may see. */
  async visible(viewer: AuthUser, userCodes: string[]): Promise<Set<string>> {
    const now = Date.now();
    const visible = new Set<string>();
    const unknown: string[] = [];
    for (const code of new Set(userCodes)) {
      if ((this.allowedUntil.get(`${viewer.id} ${code}`) ?? 0) > now) visible.add(code);
      else unknown.push(code);
    }
    if (unknown.length === 0) return visible;
    const found = await this.repo.dealtWith(viewer.id, moderatorScopeParam(moderatorScope(viewer)), unknown);
    for (const code of found) {
      visible.add(code);
      this.remember(`${viewer.id} ${code}`, now);
    }
    return visible;
  }

  private remember(key: string, now: number): void {
    this.allowedUntil.delete(key);
    this.allowedUntil.set(key, now + ALLOWED_MS);
    if (this.allowedUntil.size > MAX_ENTRIES) this.allowedUntil.delete(this.allowedUntil.keys().next().value!);
  }
}
