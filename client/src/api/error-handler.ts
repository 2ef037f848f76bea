import type { ApiError } from './api-error';

export interface ErrorHandlerDeps {
  /** Whether a user session exists at all (a guest's 401 has nothing to expire). */
  hasSession: () => boolean;
  /** GET /api/me again; true when the user is still logged in. */
  recheckUser: () => Promise<boolean>;
  /** Logs the user out after 'session expired' was shown. */
  expireSession: () => void;
  showError: (text: string) => void;
  translate: (key: string) => string;
  /** A broken rule (VALIDATION.FIELD.RULE) as readable text, even when no translation exists for it. */
  translateRule: (key: string) => string;
}

export const SESSION_EXPIRED_KEY = 'SHARED.USER.SESSION_EXPIRED';

const pathOf = (url: string) => new URL(url, 'http://local.invalid').pathname.replace(/\/+$/, '').toLowerCase();

/** The one error handler of the spec's section 8. It only shows and logs out; the error still reaches the caller. */
export function createErrorHandler(deps: ErrorHandlerDeps) {
  let recheck: Promise<boolean> | null = null;

  return async function handleHttpError(error: ApiError): Promise<void> {
    const body = error.body;
    if (!body || body.code < 400) return;
    if (body.code === 401) {
      if (pathOf(error.url) === '/api/me' || !deps.hasSession()) return;
      // Several calls failing together check the user once.
      recheck ??= deps
        .recheckUser()
        .catch(() => false)
        .finally(() => {
          recheck = null;
        });
      const stillLoggedIn = await recheck;
      if (!stillLoggedIn && deps.hasSession()) {
        deps.showError(deps.translate(SESSION_EXPIRED_KEY));
        deps.expireSession();
      }
      return;
    }
    if (body.code === 422) {
      const rules = body.data?.brokenRules ?? [];
      if (rules.length > 0) rules.forEach((rule) => deps.showError(deps.translateRule(rule)));
      else deps.showError(deps.translate(body.message));
    }
  };
}
