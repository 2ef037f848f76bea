import type { JobMachineTranslationResponse } from '#shared/contracts/translation';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { LANGUAGE_CODES } from '#shared/contracts/languages';
import { CODE_PATTERN } from '../../../common/codes';
import { PageQueryDto } from '../../../common/dto/page-query.dto';
import { InIfPresent, MaxLengthIfPresent, MinLengthIfPresent, Required, TextIfPresent } from './form-rules';
import type { JobPageResponse, JobResponse, JobRoleResponse, JobVersionResponse, PersonResponse } from '#shared/contracts/rest/marketplace';

export const JOB_TITLE_MIN = 6;
export const JOB_TITLE_MAX = 200;
export const JOB_DESCRIPTION_MIN = 20;
export const JOB_DESCRIPTION_MAX = 10_000;
export const JOB_PAGE_SIZE = 20;
export const JOB_SEARCH_MAX = 100;

/** One translation of a job, validated as the spec's job translation form. */
export class JobVersionDto {
  @ApiProperty({ enum: LANGUAGE_CODES })
  @Required()
  @TextIfPresent()
  @InIfPresent(LANGUAGE_CODES)
  lang: string;

  @ApiProperty({ minLength: JOB_TITLE_MIN, maxLength: JOB_TITLE_MAX })
  @Required()
  @TextIfPresent()
  @MinLengthIfPresent(JOB_TITLE_MIN)
  @MaxLengthIfPresent(JOB_TITLE_MAX)
  title: string;

  @ApiProperty({ minLength: JOB_DESCRIPTION_MIN, maxLength: JOB_DESCRIPTION_MAX })
  @Required()
  @TextIfPresent()
  @MinLengthIfPresent(JOB_DESCRIPTION_MIN)
  @MaxLengthIfPresent(JOB_DESCRIPTION_MAX)
  description: string;

  @ApiPropertyOptional({ description: 'at most one version is the default; with none marked, the first is' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

/** POST /api/job and POST /api/job/{code}: the whole job (versions replace the stored ones). */
export class SaveJobDto {
  @ApiPropertyOptional({ nullable: true, type: String, description: 'UTC ISO 8601 date-time, in the future; null: none' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true, strictSeparator: true })
  deadline?: string | null;

  @ApiProperty({ type: [JobVersionDto], minItems: 1, maxItems: LANGUAGE_CODES.length * 2 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(LANGUAGE_CODES.length * 2)
  @ValidateNested({ each: true })
  @Type(() => JobVersionDto)
  versions: JobVersionDto[];

  @ApiPropertyOptional({ default: true, description: 'false: no new offers are taken' })
  @IsOptional()
  @IsBoolean()
  acceptingOffers?: boolean;
}

export class LangQueryDto {
  @ApiPropertyOptional({ enum: LANGUAGE_CODES, description: 'the version in this language, else the default one' })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;
}

export class JobListQueryDto extends PageQueryDto(100, JOB_PAGE_SIZE) {
  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: "true: only the caller's own jobs" })
  @IsOptional()
  @IsIn(['true', 'false'])
  mine?: string;

  @ApiPropertyOptional({
    maxLength: JOB_SEARCH_MAX,
    description: 'only jobs with a version whose title contains this text (case-insensitive, any language); blank: all',
  })
  @IsOptional()
  @IsString()
  @MaxLength(JOB_SEARCH_MAX)
  q?: string;
}

export class SetRoleUsersDto {
  @ApiProperty({ type: [String], description: 'user codes of the instance; replaces the users on the role', maxItems: 100 })
  @IsArray()
  @ArrayMaxSize(100)
  @ArrayUnique()
  @Matches(CODE_PATTERN, { each: true })
  users: string[];
}

// ---- responses ----

export class JobVersionResponseDto implements JobVersionResponse {
  @ApiProperty() lang: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty() isDefault: boolean;
}

export class JobDto implements JobResponse {
  @ApiProperty() code: string;
  @ApiProperty({ nullable: true, type: String, description: 'UTC ISO 8601' }) deadline: string | null;
  @ApiProperty() customerCode: string;
  @ApiProperty() acceptingOffers: boolean;
  @ApiProperty({ description: 'the language of title and description: the asked one if the job has it, else the default' })
  lang: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [JobVersionResponseDto] }) versions: JobVersionResponseDto[];
  @ApiProperty({ description: 'how many offers were made on the job, in any status' }) offerCount: number;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class JobPageDto implements JobPageResponse {
  @ApiProperty({ type: [JobDto] }) jobs: JobDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class JobRoleUserDto implements PersonResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
}

export class JobRoleDto implements JobRoleResponse {
  @ApiProperty({ description: '1 manager, 2 reviewer, 3 contributor, 4 observer' }) id: number;
  @ApiProperty({ description: 'translation key of the role name' }) name: string;
  @ApiProperty({ type: [JobRoleUserDto] }) users: JobRoleUserDto[];
}

export class MachineTranslationQueryDto {
  @ApiProperty({ enum: LANGUAGE_CODES, description: 'the language to translate the job into (one it has no version in)' })
  @IsIn(LANGUAGE_CODES)
  lang: string;
}

export class JobMachineTranslationDto implements JobMachineTranslationResponse {
  @ApiProperty({ description: 'the language translated into' }) lang: string;
  @ApiProperty({ description: 'the language of the version it was translated from' }) from: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'the engine that translated it' }) engine: string;
  @ApiProperty({ enum: [true], description: "always true: a machine translation, never one of the customer's versions" }) machine: true;
}
