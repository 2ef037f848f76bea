import { http } from './http';
import type { LoginResponse, Timezone, User, UserStatus } from './types';

export interface LoginInput {
  email: string;
  password: string;
  rememberMe: boolean;
  returnUrl?: string;
}

export interface RegisterInput {
  email: string;
  password: string;
  name: string;
  surname: string;
  type: number;
  lang: string;
}

export type ProfileChanges = Partial<Pick<User, 'name' | 'surname' | 'country' | 'lang'>> & { timezone?: string; gravatar?: boolean };

// Login, register and refresh failures are the session's to handle: the global handler would
// otherwise answer a wrong password with "session expired".
export const userApi = {
  me: () => http.get<User>('/api/me', { cache: false }),
  login: (input: LoginInput) => http.post<LoginResponse>('/api/user/login', input, { handleErrors: false }),
  register: (input: RegisterInput) => http.post<LoginResponse | undefined>('/api/user', input, { handleErrors: false }),
  refresh: () => http.post<LoginResponse>('/api/user/refresh-token', undefined, { handleErrors: false }),
  logout: () => http.post<void>('/api/user/logout', undefined, { handleErrors: false }),
  updateMe: (changes: ProfileChanges) => http.patch<User>('/api/me', changes),
  byCode: (code: string) => http.get<User>(`/api/user/${encodeURIComponent(code)}`),
  /** The users with these codes the caller may see (others are absent); a lookup, cached 10 s. */
  list: (userIds: string[]) => http.post<User[]>('/api/user/list', { userIds }, { cache: true }),
  search: (query: string) => http.post<User[]>('/api/user/search', { query }, { cache: true }),
  statuses: (userIds: string[]) => http.post<UserStatus[]>('/api/user/statuses', { userIds }),
  timezones: () => http.get<Timezone[]>('/api/timezone'),
};
