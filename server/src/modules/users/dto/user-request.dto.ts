import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CODE_PATTERN } from '../../../common/codes';
import { NAME_MAX_LENGTH, Optional, ProfileField } from './profile-fields';

export const MAX_USER_CODES = 200;

export class SearchUsersDto {
  @ApiProperty({
    minLength: 4,
    maxLength: 100,
    description: 'trimmed; matches name, surname or "name surname" (case-insensitive, anywhere), or a whole e-mail address exactly',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(4)
  @MaxLength(100)
  query: string;
}

export class UserCodesDto {
  @ApiProperty({ type: [String], maxItems: MAX_USER_CODES, description: 'user codes' })
  @IsArray()
  @ArrayMaxSize(MAX_USER_CODES)
  @IsString({ each: true })
  @Matches(CODE_PATTERN, { each: true })
  userIds: string[];
}

export class UpdateMeDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: NAME_MAX_LENGTH })
  @ProfileField.name(false)
  name?: string;

  @ProfileField.surname()
  surname?: string;

  @ProfileField.type()
  type?: number;

  @ProfileField.country()
  country?: string | null;

  @ProfileField.lang()
  lang?: string;

  @ProfileField.timezone()
  timezone?: string;

  @ApiPropertyOptional({
    description: 'show my Gravatar as my avatar (it publishes a hash of my e-mail and has browsers call gravatar.com); off by default',
  })
  @Optional()
  @IsBoolean()
  gravatar?: boolean;
}
