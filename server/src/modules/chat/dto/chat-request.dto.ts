import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { CLIENT_KEY_PATTERN, MESSAGE_MAX_LENGTH } from '#shared/contracts/chat';
import { LANGUAGE_CODES } from '#shared/contracts/languages';
import { CODE_PATTERN } from '../../../common/codes';
import { PageQueryDto } from '../../../common/dto/page-query.dto';

const MAX_FILES = 10;
const MAX_USERS = 500;

/** A list of distinct user codes; `min` 0 makes an empty list valid. */
function UserCodeList(min = 1): PropertyDecorator {
  return applyDecorators(IsArray(), ArrayMinSize(min), ArrayMaxSize(MAX_USERS), ArrayUnique(), Matches(CODE_PATTERN, { each: true }));
}

/** Fields every message-carrying body shares. */
export class MessageContentDto {
  @ApiPropertyOptional({ maxLength: MESSAGE_MAX_LENGTH, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(MESSAGE_MAX_LENGTH)
  message?: string;

  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_FILES, description: 'codes of files uploaded with POST /api/File' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FILES)
  @ArrayUnique()
  @Matches(CODE_PATTERN, { each: true })
  files?: string[];
}

export class SendMessageDto extends MessageContentDto {
  @ApiPropertyOptional({
    description: "the client's temporary key; a repeated send with the same key returns the stored message",
    pattern: CLIENT_KEY_PATTERN.source,
  })
  @IsOptional()
  @Matches(CLIENT_KEY_PATTERN)
  clientKey?: string;

  @ApiPropertyOptional({ description: 'code of the message this one replies to (in the same group)' })
  @IsOptional()
  @Matches(CODE_PATTERN)
  replyToId?: string;
}

export class EditMessageDto {
  @ApiProperty({ maxLength: MESSAGE_MAX_LENGTH, description: 'the new text; empty only for a message with files' })
  @IsString()
  @MaxLength(MESSAGE_MAX_LENGTH)
  message: string;
}

export class PageMessagesDto {
  @ApiPropertyOptional({ description: 'UTC ISO time: messages older than it' })
  @IsOptional()
  @IsISO8601({ strict: true })
  time?: string;

  @ApiPropertyOptional({ description: 'messages before this seq (exact alternative to time)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  beforeSeq?: number;

  @ApiPropertyOptional({ description: 'messages after this seq, oldest first (catching up)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  afterSeq?: number;

  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;
}

export class UserListDto {
  @ApiProperty({ type: [String], description: 'user codes (the caller is added)' })
  @UserCodeList()
  userList: string[];
}

export class StartChatDto extends MessageContentDto {
  @ApiProperty({ type: [String], description: 'user codes (the caller is added)' })
  @UserCodeList()
  userList: string[];

  @ApiPropertyOptional({ description: 'true: always a new group, even if a chat with these people exists' })
  @IsOptional()
  @IsBoolean()
  createNewGroup?: boolean;
}

export class TargetParticipantsDto {
  @ApiPropertyOptional({ type: [String], description: 'user codes to add (the caller is added)' })
  @IsOptional()
  @UserCodeList(0)
  participants?: string[];

  @ApiPropertyOptional({ description: 'ignored if present: the path names the target' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  target?: string;

  @ApiPropertyOptional({ description: 'ignored if present: the path names the target type' })
  @IsOptional()
  @Allow()
  targetType?: unknown;
}

export class CreateTargetGroupDto extends MessageContentDto {
  @ApiProperty({ description: '2 job faq, 3 Job, 4 JobOffer, 5 project item' })
  @IsInt()
  @IsIn([2, 3, 4, 5])
  targetType: number;

  @ApiProperty()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  targetId: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @UserCodeList(0)
  participants?: string[];
}

export class PatchGroupDto {
  @ApiPropertyOptional({ nullable: true, maxLength: 200 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ nullable: true, maxLength: 300 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(300)
  subtitle?: string | null;
}

export class AddParticipantsDto {
  @ApiProperty({ type: [String], description: 'user codes' })
  @UserCodeList()
  participants: string[];
}

export class MarkReadDto {
  @ApiProperty({ description: 'the newest seq the reader has seen' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  seq: number;
}

export const GROUP_PAGE_SIZE = 50;

/** The reader's language for what a chat answers in words (an offer chat's job title); absent: the reader's stored one. */
export class GroupLangQueryDto {
  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;
}

export class GroupListQueryDto extends PageQueryDto(100, GROUP_PAGE_SIZE) {
  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;

  @ApiPropertyOptional({ description: 'a client cache-buster; the server never caches this list' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  fresh?: string;
}
