import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsISO8601, IsObject, IsOptional, Matches, ValidateIf, ValidateNested } from 'class-validator';
import type { ChatNotificationsResponse, KindSwitches, NotificationSettingsResponse, QuietHours } from '#shared/contracts/rest/notifications';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class KindSwitchesDto implements KindSwitches {
  @ApiProperty({ description: 'chat messages' }) @IsBoolean() messages: boolean;
  @ApiProperty({ description: 'offer moves that wait for the recipient' }) @IsBoolean() offers: boolean;
  @ApiProperty({ description: 'payments requested and received' }) @IsBoolean() payments: boolean;
}

export class QuietHoursDto implements QuietHours {
  @ApiProperty({ example: '22:00', description: "HH:MM in the user's own timezone" })
  @Matches(HHMM)
  start: string;

  @ApiProperty({ example: '07:00', description: 'HH:MM; before start: the quiet hours span midnight' })
  @Matches(HHMM)
  end: string;
}

export class NotificationSettingsDto implements NotificationSettingsResponse {
  @ApiProperty({ type: KindSwitchesDto, description: 'web push, per kind' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => KindSwitchesDto)
  push: KindSwitchesDto;

  @ApiProperty({ type: KindSwitchesDto, description: 'e-mail, per kind' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => KindSwitchesDto)
  email: KindSwitchesDto;

  @ApiProperty({ type: QuietHoursDto, nullable: true, description: 'no web push in these hours; null: none' })
  @ValidateIf((_, v) => v !== null)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quietHours: QuietHoursDto | null;
}

export class ChatMuteDto {
  @ApiProperty({ description: 'false unmutes (and ends a snooze)' })
  @IsBoolean()
  muted: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'the end of a snooze (in the future); absent or null: until turned back on',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true })
  until?: string | null;
}

export class ChatNotificationsDto implements ChatNotificationsResponse {
  @ApiProperty() muted: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) mutedUntil: string | null;
}
