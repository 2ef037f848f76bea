import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../../common/dto/page-query.dto';
import type { BusyRoomResponse } from '#shared/contracts/rest/moderation';

export const AUDIT_PAGE_SIZE = 50;

export class AuditQueryDto extends PageQueryDto(200, AUDIT_PAGE_SIZE) {}

export class RoomsQueryDto {
  @ApiPropertyOptional({ default: 10, maximum: 1440, description: 'the window, in minutes' })
  @IsOptional()
  @Matches(/^([1-9]\d{0,2}|1[0-3]\d\d|14[0-3]\d|1440)$/)
  minutes?: string;
}

export class AuditEntryDto {
  @ApiProperty() at: string;
  @ApiProperty({ enum: ['room.watch', 'room.unwatch', 'message.delete', 'report.dismiss', 'report.delete', 'report.warn', 'report.suspend', 'user.unsuspend'] })
  action: string;
  @ApiProperty({ nullable: true, type: String }) actorCode: string | null;
  @ApiProperty({ nullable: true, type: String }) actorName: string | null;
  @ApiProperty({ nullable: true, type: String }) groupCode: string | null;
  @ApiProperty({ nullable: true, type: String }) messageCode: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditEntryDto] }) entries: AuditEntryDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class BusyRoomDto implements BusyRoomResponse {
  @ApiProperty() code: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty() type: number;
  @ApiProperty({ description: 'messages in the window' }) messages: number;
  @ApiProperty() lastMessageAt: string;
  @ApiProperty() participants: number;
  @ApiProperty({ description: 'participants with a connected socket now' }) connectedParticipants: number;
  @ApiProperty() watched: boolean;
}
