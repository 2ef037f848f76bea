import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsNumber, IsObject, IsOptional, IsString, IsUrl, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { CODE_PATTERN } from '../../../common/codes';
import { PageQueryDto } from '../../../common/dto/page-query.dto';

export const NOTIFICATIONS_PAGE_SIZE = 50;

/** RFC 8291 keys as the browser's PushSubscription.toJSON() gives them (unpadded base64url). */
export class PushKeysDto {
  @ApiProperty({ description: 'the P-256 ECDH public key of the browser, 65 bytes uncompressed, base64url' })
  @IsString()
  @Matches(/^B[A-Za-z0-9_-]{86}=?$/)
  p256dh: string;

  @ApiProperty({ description: 'the 16-byte authentication secret, base64url' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{22}(==)?$/)
  auth: string;
}

export class RegisterPushDto {
  @ApiProperty({ maxLength: 2048, description: "the push service URL of the browser's subscription (https only)" })
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false, require_valid_protocol: true })
  endpoint: string;

  @ApiProperty({ type: PushKeysDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PushKeysDto)
  keys: PushKeysDto;

  @ApiPropertyOptional({ type: Number, nullable: true, description: "the subscription's expiry (ms since epoch), as the browser reports it; not used" })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsNumber()
  expirationTime?: number | null;
}

export class UnregisterPushDto {
  @ApiProperty({ maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  endpoint: string;
}

export class NotificationsQueryDto extends PageQueryDto(200, NOTIFICATIONS_PAGE_SIZE) {
  @ApiProperty({ description: 'the user code' })
  @IsString()
  @Matches(CODE_PATTERN)
  user: string;
}

export class NotificationRecordDto {
  @ApiProperty() at: string;
  @ApiProperty({ enum: ['message', 'offer-status', 'payment-requested', 'payment-received'] }) kind: string;
  @ApiProperty({ enum: ['queued', 'skipped', 'sent', 'retrying', 'failed', 'subscription-removed'] }) status: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'why: online, read, deleted, blocked, superseded, muted, setting-off, quiet-hours, not-configured, left-group (skipped); rejected, network, attempts-exhausted (failed); gone (removed); rate-limited, server-error, network (retrying)',
  })
  reason: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "the push service's HTTP status" }) httpStatus: number | null;
  @ApiProperty({ nullable: true, type: String, description: "the push service's origin" }) pushService: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'group code (chat) or offer code' }) ref: string | null;
  @ApiProperty({ description: 'the outbox row (the change) this notification is about' }) event: string;
}

export class NotificationsPageDto {
  @ApiProperty() user: string;
  @ApiProperty({ description: "the user's push subscriptions now" }) subscriptions: number;
  @ApiProperty({ type: [NotificationRecordDto] }) entries: NotificationRecordDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class QueueBoardSessionDto {
  @ApiProperty({ description: 'open this in the browser; the cookie just set lets it in' }) url: string;
  @ApiProperty() expiresAt: string;
}
