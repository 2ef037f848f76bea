import { gravatarUrl } from '../../common/gravatar';
import { MeResponseDto, UserAvatarDto, UserResponseDto } from './dto/user-response.dto';
import { timezoneInfo } from './timezone-info';
import { UserEntity } from './user.entity';

type ProfileFields = Pick<UserEntity, 'code' | 'name' | 'surname' | 'type' | 'country' | 'lang' | 'timezone' | 'email' | 'avatarUrl' | 'gravatar'>;

/**
 * The stored avatar if the user set one; their Gravatar only if they opted in (its URL is a hash of the
 * e-mail, which anyone can confirm a guessed address against); otherwise no URL, and clients draw the
 * initials. So by default no profile leaks anything about the e-mail, nor makes browsers call a third party.
 */
export function mapAvatar(user: Pick<UserEntity, 'email' | 'avatarUrl' | 'gravatar'>): UserAvatarDto {
  if (user.avatarUrl) return { code: 'custom', url: user.avatarUrl };
  if (user.gravatar) return { code: 'gravatar', url: gravatarUrl(user.email) };
  return { code: 'initials', url: null };
}

/** What anyone who may see the user sees: no e-mail, role or internal id. */
export function mapUser(user: ProfileFields, away: number | null, now = new Date()): UserResponseDto {
  return {
    code: user.code,
    name: user.name,
    surname: user.surname,
    type: user.type,
    avatar: mapAvatar(user),
    country: user.country,
    lang: user.lang,
    timezone: timezoneInfo(user.timezone, now),
    jobIds: [],
    away,
  };
}

export function mapMe(user: ProfileFields & Pick<UserEntity, 'role'>, instanceCode: string, away: number | null): MeResponseDto {
  return { ...mapUser(user, away), email: user.email, role: user.role, instanceCode };
}
