/**
 * REST answers about users (server/src/modules/users and auth). The response DTO classes implement these, so
 * the server cannot drift from what the client reads; the client imports them as types (@contracts/rest/users).
 */
export interface UserAvatar {
  /** 'initials' (no image: draw the initials), 'gravatar' (the user opted in) or 'custom'. */
  code: string;
  /** null for initials. */
  url: string | null;
}

export interface UserTimezone {
  abbr: string;
  name: string;
  /** Minutes east of UTC, now. */
  offset: number;
}

/** A user as anyone who may see them sees them (spec section 3, User). */
export interface UserResponse {
  code: string;
  name: string;
  surname: string;
  /** 1 personal, 2 company. */
  type: number;
  avatar: UserAvatar;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  lang: string;
  timezone: UserTimezone;
  jobIds: string[];
  /** Whole minutes since the last activity; null if never seen. */
  away: number | null;
}

/** The caller's own profile: also the e-mail, the role and the instance. */
export interface MeResponse extends UserResponse {
  email: string;
  /** Instance user 0, global user 10, instance admin 50, global admin 100. */
  role: number;
  instanceCode: string;
}

export interface UserStatusResponse {
  userCode: string;
  /** Has at least one connected socket. */
  online: boolean;
  lastActiveAt: string | null;
  away: number | null;
  /** Milliseconds since the last activity when this was read; null if never seen. */
  idleMs: number | null;
}

export interface LoginResponse {
  token: string;
  user: MeResponse;
  /** The returnUrl if it is a same-origin path, else '/'. */
  redirectUrl: string;
}
