import { Module } from '@nestjs/common';
import { NotificationSettingsRepository } from '#shared/notifications/notification-settings.repository';
import { EmailUnsubscribeController } from './email-unsubscribe.controller';
import { NotificationSettingsController } from './notification-settings.controller';
import { NotificationSettingsService } from './notification-settings.service';

/** Notification settings on the server: the REST half. The worker's push and e-mail deciders read the same repository. */
@Module({
  controllers: [NotificationSettingsController, EmailUnsubscribeController],
  providers: [NotificationSettingsService, NotificationSettingsRepository],
})
export class NotificationsModule {}
