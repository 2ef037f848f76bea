import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO31661Alpha2, IsOptional, IsString, MaxLength, MinLength, registerDecorator, ValidateIf } from 'class-validator';
import { LANGUAGE_CODES } from '#shared/contracts/languages';
import { USER_TYPES } from '#shared/contracts/users';
import { visibleText } from '../../../common/visible-text';
import { canonicalTimezone } from '../timezone-info';

export const NAME_MAX_LENGTH = 100;

/** Names are cleaned like file names before they are checked, so one that is only invisible characters is empty. */
const cleaned = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? visibleText(value) : value));

/** Optional but, when present, never null: a null would otherwise skip validation and reach the database. */
export const Optional = () => ValidateIf((_: object, value: unknown) => value !== undefined);

function IsTimezone(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isTimezone',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: { validate: (value: unknown) => typeof value === 'string' && canonicalTimezone(value) !== null },
    });
}

/** The fields of a profile, as register and PATCH /api/me validate them. */
export const ProfileField = {
  name: (required: boolean) => applyDecorators(...(required ? [] : [Optional()]), cleaned(), IsString(), MinLength(1), MaxLength(NAME_MAX_LENGTH)),
  surname: () => applyDecorators(ApiPropertyOptional({ maxLength: NAME_MAX_LENGTH }), Optional(), cleaned(), IsString(), MaxLength(NAME_MAX_LENGTH)),
  type: () => applyDecorators(ApiPropertyOptional({ enum: USER_TYPES, description: '1 personal, 2 company' }), Optional(), IsInt(), IsIn(USER_TYPES)),
  country: () =>
    applyDecorators(
      ApiPropertyOptional({ nullable: true, type: String, example: 'PL', description: 'ISO 3166-1 alpha-2; null clears it' }),
      IsOptional(),
      IsString(),
      MaxLength(2),
      IsISO31661Alpha2(),
    ),
  lang: () => applyDecorators(ApiPropertyOptional({ enum: LANGUAGE_CODES }), Optional(), IsIn(LANGUAGE_CODES)),
  timezone: () =>
    applyDecorators(
      ApiPropertyOptional({ example: 'Europe/Warsaw', description: 'an IANA time zone name' }),
      Optional(),
      IsString(),
      MaxLength(64),
      IsTimezone(),
    ),
};
