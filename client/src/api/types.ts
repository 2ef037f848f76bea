import type { CurrentInstanceResponse, InstanceResponse } from '@contracts/rest/instances';
import type { ClientConfigResponse } from '@contracts/rest/misc';
import type { LoginResponse as LoginAnswer, MeResponse, UserAvatar, UserResponse, UserTimezone } from '@contracts/rest/users';

/** Shapes the server answers with come from the server's contracts (shared/contracts/rest), which its DTOs implement. */
export type { UserAvatar, UserStatusResponse as UserStatus, UserTimezone as Timezone } from '@contracts/rest/users';

/**
 * A user as the client holds them: anyone's profile, and for the session user also the own fields. Screens
 * draw initials without an avatar and leave out an unknown time zone, so users made up on the client (tests,
 * placeholders) may go without either.
 */
export type User = Omit<UserResponse, 'avatar' | 'timezone'> & {
  avatar: UserAvatar | null;
  timezone: UserTimezone | null;
} & Partial<Pick<MeResponse, 'email' | 'role' | 'instanceCode'>>;

export type LoginResponse = Omit<LoginAnswer, 'user'> & { user: User };

/** The instance as the app holds it: the public summary, and the custom CSS once the full instance was read. */
export type Instance = CurrentInstanceResponse & Partial<Pick<InstanceResponse, 'customCss'>>;

/** GET /assets/config.json: languages, currencies and the default currency. */
export type AppConfigFile = ClientConfigResponse;
