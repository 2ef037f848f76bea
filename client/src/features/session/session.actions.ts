import { clearResponseCache } from '@/api/http';
import type { LoginResponse } from '@/api/types';
import { type LoginInput, type ProviderCallback, type RegisterInput, userApi } from '@/api/user.api';
import { guardCache } from '@/app/guards/guard-cache';
import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { readStorage, writeStorage } from '@/features/preferences/preferences';
import { writeMenuOpened } from '@/features/shell/menu-mode';
import { TOKEN_KEY, sessionStore } from './session.store';
import { decodeToken, planRefresh } from './token';
import { unregisterPush } from '@/worker/push';

let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let refreshing: Promise<boolean> | null = null;

function cancelRefresh(): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  refreshTimer = null;
}

/** Guards are evaluated again and cached lookups dropped whenever the user changes. */
function reloadGuards(): void {
  guardCache.clear();
  clearResponseCache();
  sessionStore.guardsVersion += 1;
}

function showSessionExpired(): void {
  notify.error(t('SHARED.USER.SESSION_EXPIRED'));
}

/** Schedules the refresh 20 s before expiry; an already expired token is refreshed only within 600 s. */
function scheduleRefresh(token: string): void {
  cancelRefresh();
  const claims = decodeToken(token);
  if (!claims) return;
  const plan = planRefresh(claims.exp, Date.now());
  if (plan.kind === 'schedule') {
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      const current = sessionStore.token;
      if (!current) return;
      const next = planRefresh(claims.exp, Date.now());
      if (next.kind === 'schedule') scheduleRefresh(current);
      else void refreshToken();
    }, plan.delayMs);
  }
}

function applyLogin(response: LoginResponse): void {
  writeStorage(TOKEN_KEY, response.token);
  sessionStore.token = response.token;
  sessionStore.user = response.user;
  sessionStore.status = 'checked';
  scheduleRefresh(response.token);
  reloadGuards();
  // On a phone the overlay menu would cover the page the login leads to: it opens when asked for.
  writeMenuOpened('over', false);
}

/** Finishes a sign-in with an identity provider: the server exchanges the code and answers like a login. */
export async function loginWithProvider(provider: string, callback: ProviderCallback): Promise<LoginResponse> {
  const response = await userApi.providerLogin(provider, callback);
  applyLogin(response);
  return response;
}

/** Clears the token and user locally; guards are reloaded so guarded pages send the visitor to login. */
export function clearSession(): void {
  cancelRefresh();
  writeStorage(TOKEN_KEY, null);
  sessionStore.token = null;
  sessionStore.user = null;
  sessionStore.status = 'checked';
  reloadGuards();
}

/** Logs out on the server (drops the refresh cookie) and locally. */
export async function logout(): Promise<void> {
  const hadToken = sessionStore.token !== null;
  if (hadToken) await unregisterPush();
  clearSession();
  if (hadToken) await userApi.logout().catch(() => undefined);
}

/** Runs `fn` while holding a lock shared by every tab of this origin (where the browser has Web Locks). */
function acrossTabs<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request(name, fn) : fn();
}

/**
 * Refreshes the access token with the refresh cookie; on failure the user is logged out. Tabs take turns:
 * the server treats a second use of a refresh cookie as theft, so a tab that finds a fresh token written by
 * another tab while it waited adopts it instead of refreshing again.
 */
export function refreshToken(): Promise<boolean> {
  const stale = sessionStore.token;
  refreshing ??= acrossTabs('parley.session.refresh', async () => {
    const stored = readStorage(TOKEN_KEY);
    const storedClaims = decodeToken(stored);
    if (stored && stored !== stale && storedClaims && planRefresh(storedClaims.exp, Date.now()).kind === 'schedule') {
      sessionStore.token = stored;
      scheduleRefresh(stored);
      return true;
    }
    const claims = decodeToken(sessionStore.token);
    if (claims && planRefresh(claims.exp, Date.now()).kind === 'too-late') {
      showSessionExpired();
      await logout();
      return false;
    }
    try {
      applyLogin(await userApi.refresh());
      return true;
    } catch {
      await logout();
      return false;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** GET /api/me: true when the token still belongs to a user. Does not log out by itself. */
export async function checkUser(): Promise<boolean> {
  if (!sessionStore.token) return false;
  try {
    sessionStore.user = await userApi.me();
    return true;
  } catch {
    return false;
  }
}

/**
 * App start: a stored token is checked with /api/me (refreshed first if it is about to expire or
 * expired less than 600 s ago); the loader shows until this finishes.
 */
export async function startSession(): Promise<void> {
  const token = readStorage(TOKEN_KEY);
  const claims = decodeToken(token);
  if (!token || !claims) {
    if (token) writeStorage(TOKEN_KEY, null);
    sessionStore.status = 'checked';
    return;
  }
  sessionStore.token = token;
  const plan = planRefresh(claims.exp, Date.now());
  if (plan.kind === 'too-late') {
    showSessionExpired();
    await logout();
    return;
  }
  if (plan.kind === 'refresh-now') {
    await refreshToken();
    sessionStore.status = 'checked';
    return;
  }
  if (await checkUser()) {
    scheduleRefresh(token);
    sessionStore.status = 'checked';
    reloadGuards();
  } else {
    clearSession();
  }
}

/** Logs in; on failure the user is logged out (token cleared) and the error goes back to the form. */
export async function login(input: LoginInput): Promise<LoginResponse> {
  try {
    const response = await userApi.login(input);
    applyLogin(response);
    return response;
  } catch (err) {
    clearSession();
    throw err;
  }
}

/** Registers and is logged in by the answer (spec section 5); a server that answers without a token gets a login. */
export async function register(input: RegisterInput, returnUrl?: string): Promise<LoginResponse> {
  const response = await userApi.register(input);
  if (response && typeof response.token === 'string') {
    applyLogin(response);
    return response;
  }
  return login({ email: input.email, password: input.password, rememberMe: false, returnUrl });
}
