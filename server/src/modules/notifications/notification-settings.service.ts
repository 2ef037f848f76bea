import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#shared/contracts/auth';
import { NotificationSettingsRepository } from '#shared/notifications/notification-settings.repository';
import { toResponse } from '#shared/notifications/notification-settings';
import { notFound, unprocessable } from '../../common/errors';
import { ChatMuteDto, ChatNotificationsDto, NotificationSettingsDto } from './dto/notifications.dto';

/** A snooze ends within a year; longer is "until I turn it back on". */
const MAX_SNOOZE_MS = 366 * 24 * 3600 * 1000;

@Injectable()
export class NotificationSettingsService {
  constructor(private readonly settings: NotificationSettingsRepository) {}

  async get(user: AuthUser): Promise<NotificationSettingsDto> {
    return toResponse(await this.settings.forUser(user.id));
  }

  async save(user: AuthUser, dto: NotificationSettingsDto): Promise<NotificationSettingsDto> {
    await this.settings.save(user.id, dto);
    return this.get(user);
  }

  /** Mutes, snoozes or unmutes the caller's own membership of a chat; 404 when they are not in it. */
  async muteChat(user: AuthUser, groupCode: string, dto: ChatMuteDto): Promise<ChatNotificationsDto> {
    const until = dto.muted && dto.until ? new Date(dto.until) : null;
    if (until && until.getTime() <= Date.now()) throw unprocessable(['NOTIFICATIONS.SNOOZE_IN_PAST']);
    if (until && until.getTime() > Date.now() + MAX_SNOOZE_MS) throw unprocessable(['NOTIFICATIONS.SNOOZE_TOO_LONG']);
    if (!(await this.settings.setChatMute(user.id, groupCode, dto.muted, until))) throw notFound();
    return { muted: dto.muted, mutedUntil: until ? until.toISOString() : null };
  }
}
