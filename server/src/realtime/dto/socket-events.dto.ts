import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { CLIENT_KEY_PATTERN } from '#shared/contracts/chat';
import { CODE_PATTERN } from '../../common/codes';
import { EditMessageDto, MessageContentDto } from '../../modules/chat/dto/chat-request.dto';

export class GroupCodeDto {
  @Matches(CODE_PATTERN)
  groupCode: string;
}

export class SocketSendDto extends MessageContentDto {
  @Matches(CODE_PATTERN)
  groupCode: string;

  @Matches(CLIENT_KEY_PATTERN)
  clientKey: string;

  @IsOptional()
  @Matches(CODE_PATTERN)
  replyToId?: string;
}

export class SocketEditDto extends EditMessageDto {
  @Matches(CODE_PATTERN)
  groupCode: string;

  @Matches(CODE_PATTERN)
  code: string;
}

export class GroupReadDto extends GroupCodeDto {
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  seq: number;
}

export class SyncGroupDto extends GroupCodeDto {
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  afterSeq: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  afterEditSeq?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  afterTranslationSeq?: number;
}

export class SyncDto {
  @IsArray()
  @ArrayMaxSize(100)
  // The same group twice would be read twice: one event could ask for a group's history a hundred times over.
  @ArrayUnique((g: SyncGroupDto) => g?.groupCode)
  @ValidateNested({ each: true })
  @Type(() => SyncGroupDto)
  groups: SyncGroupDto[];
}

export class PresenceWatchDto {
  @IsArray()
  @ArrayMaxSize(200)
  @ArrayUnique()
  @Matches(CODE_PATTERN, { each: true })
  userCodes: string[];
}

export class AuthRefreshDto {
  @IsString()
  @MaxLength(4096)
  token: string;
}
