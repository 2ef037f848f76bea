import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { PresencePayload } from '#shared/contracts/socket-events';
import { PresenceService } from '#shared/presence/presence.service';
import { moderatorScope, moderatorScopeParam } from '../../common/moderator-scope';
import { PresenceAudienceRepository } from './presence-audience.repository';

/** How long an answer is kept: a yes for a minute, a no briefly (a chat just started should show presence soon). */
const ALLOWED_MS = 60_000;
const REFUSED_MS = 5_000;
const MAX_ENTRIES = 100_000;

/**
 * Who may see whose exact presence (online, last activity, away minutes): the people one deals with — who share a
 * chat (not a job's FAQ) or an offer with them — and moderators for the people in their scope. Everyone else gets
 * nothing, as if unknown. Every chat screen asks (presence:watch), so answers are cached per viewer and user, in
 * this process, briefly.
 */
@Injectable()
export class PresenceAudience {
  /** `viewerId code` → whether allowed, and until when that answer holds */
  private readonly answers = new Map<string, { allowed: boolean; until: number }>();

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
      const held = this.answers.get(`${viewer.id} ${code}`);
      if (held && held.until > now) {
        if (held.allowed) visible.add(code);
      } else unknown.push(code);
    }
    if (unknown.length === 0) return visible;
    const found = await this.repo.dealtWith(viewer.id, moderatorScopeParam(moderatorScope(viewer)), unknown);
    for (const code of unknown) {
      const allowed = found.has(code);
      if (allowed) visible.add(code);
      this.remember(`${viewer.id} ${code}`, allowed, now);
    }
    return visible;
  }

  private remember(key: string, allowed: boolean, now: number): void {
    this.answers.delete(key);
    this.answers.set(key, { allowed, until: now + (allowed ? ALLOWED_MS : REFUSED_MS) });
    if (this.answers.size > MAX_ENTRIES) this.answers.delete(this.answers.keys().next().value!);
  }
}
