import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthUser } from '#shared/contracts/auth';
import { OfferTimerSettings } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { forbidden, notFound, unprocessable } from '../../../common/errors';
import { resolveTimerSettings, timerSettingsProblems } from '#shared/offers/timer-settings';
import { OfferTimerSettingsDto, UpdateOfferTimerSettingsDto } from './offer-timer-settings.dto';

const FIELDS = ['offerExpiryDays', 'finalizeAutoAcceptDays', 'reminderDaysBefore', 'paymentReminderDays'] as const;

interface InstanceTimers {
  id: string;
  code: string;
  offer_timers: unknown;
}

/**
 * The instance admin's offer timer settings (instance.offer_timers). A change applies to timers set from then on:
 * each move sets its offer's next timer from the settings of that moment.
 */
@Injectable()
export class OfferTimerSettingsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(user: AuthUser, instanceCode?: string): Promise<OfferTimerSettingsDto> {
    const instance = await this.target(user, instanceCode);
    return { instanceCode: instance.code, ...resolveTimerSettings(instance.offer_timers) };
  }

  async update(user: AuthUser, dto: UpdateOfferTimerSettingsDto): Promise<OfferTimerSettingsDto> {
    const instance = await this.target(user, dto.instanceCode);
    const changes = Object.fromEntries(FIELDS.filter((f) => dto[f] !== undefined).map((f) => [f, dto[f]])) as Partial<OfferTimerSettings>;
    if (Object.keys(changes).length === 0) throw unprocessable(['VALIDATION.OFFER_TIMERS.NOTHING_TO_UPDATE']);
    const settings = { ...resolveTimerSettings(instance.offer_timers), ...changes };
    const problems = timerSettingsProblems(settings);
    if (problems.length) throw unprocessable(problems);
    await this.db.query(`UPDATE instance SET offer_timers = $2::jsonb, updated_at = now() WHERE id = $1`, [instance.id, JSON.stringify(settings)]);
    return { instanceCode: instance.code, ...settings };
  }

  /** Instance admins: their own instance; global admins: any (404 for an unknown code). */
  private async target(user: AuthUser, instanceCode?: string): Promise<InstanceTimers> {
    const rows: InstanceTimers[] = instanceCode
      ? await this.db.query(`SELECT id, code, offer_timers FROM instance WHERE code = $1`, [instanceCode])
      : await this.db.query(`SELECT id, code, offer_timers FROM instance WHERE id = $1`, [user.instanceId]);
    const instance = rows[0];
    if (!instance) throw notFound();
    if (instance.id !== user.instanceId && user.role !== Role.GlobalAdmin) throw forbidden();
    return instance;
  }
}
