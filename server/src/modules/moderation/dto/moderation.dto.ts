import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export class AuditQueryDto {
  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/)
  page?: string;

  @ApiPropertyOptional({ default: 50, maximum: 200 })
  @IsOptional()
  @Matches(/^(200|1\d\d|[1-9]\d?)$/)
  pageSize?: string;
}

export class RoomsQueryDto {
  @ApiPropertyOptional({ default: 10, maximum: 1440, description: 'the window, in minutes' })
  @IsOptional()
  @Matches(/^([1-9]\d{0,2}|1[0-3]\d\d|14[0-3]\d|1440)$/)
  minutes?: string;
}

export class AuditEntryDto {
  @ApiProperty() at: string;
  @ApiProperty({ enum: ['room.watch', 'room.unwatch', 'message.delete'] }) action: string;
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

export class BusyRoomDto {
  @ApiProperty() code: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty() type: number;
  @ApiProperty({ description: 'messages in the window' }) messages: number;
  @ApiProperty() lastMessageAt: string;
  @ApiProperty() participants: number;
  @ApiProperty({ description: 'participants with a connected socket now' }) connectedParticipants: number;
  @ApiProperty() watched: boolean;
}
