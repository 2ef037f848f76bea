import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  BlockedUserResponse,
  REPORT_ACTIONS,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  ReportAction,
  ReportedMessage,
  ReportPerson,
  ReportQueueItemResponse,
  ReportReason,
  ReportResponse,
  ReportStatus,
  SUSPEND_DAYS_MAX,
  UnsuspendedUserResponse,
  WarningResponse,
} from '#shared/contracts/rest/reports';
import { PageQueryDto } from '../../../common/dto/page-query.dto';

const CODE = /^[A-Za-z0-9_-]{1,32}$/;

/** A message (groupCode and messageCode) or a person (userCode): exactly one of the two. */
export class CreateReportDto {
  @ApiPropertyOptional({ description: 'the chat of the reported message' })
  @IsOptional()
  @IsString()
  @Matches(CODE)
  groupCode?: string;

  @ApiPropertyOptional({ description: 'the reported message (with groupCode)' })
  @IsOptional()
  @IsString()
  @Matches(CODE)
  messageCode?: string;

  @ApiPropertyOptional({ description: 'the reported person (instead of a message)' })
  @IsOptional()
  @IsString()
  @Matches(CODE)
  userCode?: string;

  @ApiProperty({ enum: REPORT_REASONS })
  @IsIn(REPORT_REASONS)
  reason: ReportReason;

  @ApiPropertyOptional({ maxLength: REPORT_NOTE_MAX })
  @IsOptional()
  @IsString()
  @MaxLength(REPORT_NOTE_MAX)
  note?: string;
}

export class ResolveReportDto {
  @ApiProperty({ enum: REPORT_ACTIONS, description: 'delete: the reported message; suspend: the reported person, for `days`' })
  @IsIn(REPORT_ACTIONS)
  action: ReportAction;

  @ApiPropertyOptional({ minimum: 1, maximum: SUSPEND_DAYS_MAX, default: 7, description: 'only with suspend' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SUSPEND_DAYS_MAX)
  days?: number;
}

export const REPORTS_PAGE_SIZE = 20;

export class ReportQueueQueryDto extends PageQueryDto(50, REPORTS_PAGE_SIZE) {
  @ApiPropertyOptional({ enum: ['open', 'resolved'], default: 'open' })
  @IsOptional()
  @IsIn(['open', 'resolved'])
  status?: ReportStatus;
}

export class ReportPersonDto implements ReportPerson {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
}

export class ReportedMessageDto implements ReportedMessage {
  @ApiProperty() code: string;
  @ApiProperty() seq: number;
  @ApiProperty({ nullable: true, type: String }) userCode: string | null;
  @ApiProperty({ nullable: true, type: String }) userName: string | null;
  @ApiProperty() message: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() deleted: boolean;
  @ApiProperty({ description: "one of the marketplace's offer notes: its text is a translation key" }) offerNote: boolean;
}

export class ReportDto implements ReportResponse {
  @ApiProperty() code: string;
  @ApiProperty({ enum: REPORT_REASONS }) reason: ReportReason;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({ type: ReportPersonDto }) reported: ReportPersonDto;
  @ApiProperty({ nullable: true, type: String }) groupCode: string | null;
  @ApiProperty({ nullable: true, type: String }) messageCode: string | null;
  @ApiProperty({ enum: ['open', 'resolved'] }) status: ReportStatus;
  @ApiProperty({ nullable: true, enum: REPORT_ACTIONS }) action: ReportAction | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) resolvedAt: string | null;
}

export class WarningDto implements WarningResponse {
  @ApiProperty({ description: "the code of the pile's oldest report the warning was given through" }) code: string;
  @ApiProperty({ enum: REPORT_REASONS }) reason: ReportReason;
  @ApiProperty() at: string;
}

export class ReportQueueItemDto extends ReportDto implements ReportQueueItemResponse {
  @ApiProperty({ type: ReportPersonDto }) reporter: ReportPersonDto;
  @ApiProperty({ type: [ReportedMessageDto] }) context: ReportedMessageDto[];
  @ApiProperty({ nullable: true, type: Boolean }) messageDeletedNow: boolean | null;
  @ApiProperty({ nullable: true, type: ReportPersonDto }) resolvedBy: ReportPersonDto | null;
  @ApiProperty({ nullable: true, type: String, description: 'until when the reported person is suspended now' }) reportedSuspendedUntil: string | null;
}

export class UnsuspendedUserDto extends ReportPersonDto implements UnsuspendedUserResponse {
  @ApiProperty({ nullable: true, type: String, enum: [null] }) suspendedUntil: null;
}

export class ReportQueuePageDto {
  @ApiProperty({ type: [ReportQueueItemDto] }) reports: ReportQueueItemDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class BlockedUserDto implements BlockedUserResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
  @ApiProperty() blockedAt: string;
}
