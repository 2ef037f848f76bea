import { http } from './http';
import type { LoginResponse, Timezone, User, UserStatus } from './types';

export interface LoginInput {
  email: string;
  password: string;
  rememberMe: boolean;
  returnUrl?: string;
  /** From a provider sign-in that matched this account's e-mail: links the provider once the password is right. */
  linkToken?: string;
}

export interface RegisterInput {
  email: string;
  password: string;
  name: string;
  surname: string;
  type: number;
  lang: string;
}

export interface AuthProvider {
  name: string;
  label: string;
}

export interface LinkedProvider extends AuthProvider {
  email: string | null;
  linkedAt: string;
}

/** What the identity provider sent the browser back with, passed on to the server. */
export interface ProviderCallback {
  code: string;
  state: string;
  iss?: string;
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
  authProviders: () => http.get<AuthProvider[]>('/api/User/AuthProviders', { cache: false }),
  /** `after` travels through the provider round trip and comes back as the login response's redirectUrl. */
  providerLoginUrl: (provider: string, after: string | null, type?: number) =>
    http.get<{ url: string }>(
      `/api/User/AuthProviders/${encodeURIComponent(provider)}/LoginUrl?${new URLSearchParams({ ...(after ? { state: after } : {}), ...(type ? { type: String(type) } : {}) })}`,
      { cache: false, handleErrors: false },
    ),
  linkedProviders: () => http.get<LinkedProvider[]>('/api/User/AuthProviders/Linked', { cache: false }),
  unlinkProvider: (provider: string) => http.delete<void>(`/api/User/AuthProviders/Linked/${encodeURIComponent(provider)}`, { handleErrors: false }),
  providerLogin: (provider: string, callback: ProviderCallback) =>
    http.post<LoginResponse>(`/api/User/AuthProviders/${encodeURIComponent(provider)}/Login`, callback, { handleErrors: false }),
  updateMe: (changes: ProfileChanges) => http.patch<User>('/api/me', changes),
  byCode: (code: string) => http.get<User>(`/api/user/${encodeURIComponent(code)}`),
  /** The users with these codes the caller may see (others are absent); a lookup, cached 10 s. */
  list: (userIds: string[]) => http.post<User[]>('/api/user/list', { userIds }, { cache: true }),
  search: (query: string) => http.post<User[]>('/api/user/search', { query }, { cache: true }),
  statuses: (userIds: string[]) => http.post<UserStatus[]>('/api/user/statuses', { userIds }),
  timezones: () => http.get<Timezone[]>('/api/timezone'),
};
