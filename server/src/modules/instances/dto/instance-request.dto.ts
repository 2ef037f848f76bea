import { PageQueryDto } from '../../../common/dto/page-query.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { CODE_PATTERN } from '../../../common/codes';
import { hasInvisibleCharacters } from '../../../common/visible-text';
import { CUSTOM_CSS_MAX_BYTES } from '../custom-css.rule';

const HEX_COLOR = /^[0-9a-fA-F]{6}$/;
const NOT_BLANK = /\S/;
/** https:// or a path on this site ("/logo.png"), never another scheme or "//host". */
const LOGO_URL = /^(https:\/\/[^\s\\]+|\/(?![/\\])[^\s\\]*)$/i;

/** Absent means "leave as is"; null is a wrong type like any other. */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

const IsNotBlank = () => ValidateBy({ name: 'isNotBlank', validator: { validate: (v: unknown) => typeof v === 'string' && NOT_BLANK.test(v) } });
/** Controls and the other characters display names are cleaned of (bidi overrides, zero-width, …): the name is the page title. */
const HasNoControlCharacters = () =>
  ValidateBy({ name: 'noControlCharacters', validator: { validate: (v: unknown) => typeof v === 'string' && !hasInvisibleCharacters(v) } });

/** Six hex digits without '#', either case (stored lower-case). Broken rule: VALIDATION.<FIELD>.IS_HEX_COLOR. */
const IsHexColorWithoutHash = () => ValidateBy({ name: 'isHexColor', validator: { validate: (v: unknown) => typeof v === 'string' && HEX_COLOR.test(v) } });

export class UpdateInstanceDto {
  @ApiPropertyOptional({ description: "instance to change (default: the caller's own); only a global admin may name another one" })
  @IfPresent()
  @IsString()
  @Matches(CODE_PATTERN)
  code?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'Acme jobs', description: 'trimmed; not blank; no control characters' })
  @IfPresent()
  @IsString()
  @MaxLength(100)
  @IsNotBlank()
  @HasNoControlCharacters()
  name?: string;

  @ApiPropertyOptional({ example: '228be6', pattern: '^[0-9a-fA-F]{6}$', description: 'hex colour WITHOUT "#" (stored lower-case)' })
  @IfPresent()
  @IsHexColorWithoutHash()
  color?: string;

  @ApiPropertyOptional({ example: '7950f2', pattern: '^[0-9a-fA-F]{6}$', description: 'hex colour WITHOUT "#" (stored lower-case)' })
  @IfPresent()
  @IsHexColorWithoutHash()
  accent?: string;

  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 2048, description: 'https:// URL or a path on this site; null removes the logo' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(LOGO_URL)
  logoUrl?: string | null;

  @ApiPropertyOptional({
    maxLength: CUSTOM_CSS_MAX_BYTES,
    description:
      'CSS appended to /instance/styles.css; at most 50 KB; no "</style", no @import, no javascript:/vbscript:/expression(/-moz-binding, ' +
      'every url()/image-set() URL relative or the logo URL, and no text of its own (content: only none, normal, "", number counters, quotes; ' +
      'no strings in quotes, list-style, text-overflow, hyphenate-character, text-emphasis; no @counter-style, string-set or letter counter styles). ' +
      'Broken rules: VALIDATION.CUSTOM_CSS.{TOO_LONG,STYLE_TAG,IMPORT,SCRIPT,UNSAFE_URL,CONTENT,TEXT}',
  })
  @IfPresent()
  @IsString()
  @MaxLength(CUSTOM_CSS_MAX_BYTES)
  customCss?: string;
}

export const INSTANCE_PAGE_SIZE = 20;

export class InstanceListQueryDto extends PageQueryDto(100, INSTANCE_PAGE_SIZE) {}

export class AppointOwnerDto {
  @ApiProperty({ description: 'code of a user of that instance; they become its owner and instance admin' })
  @IsString()
  @Matches(CODE_PATTERN)
  userCode: string;
}
