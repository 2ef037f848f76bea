import { ApiError } from './api-error';
import { type ErrorHandlerDeps, createErrorHandler } from './error-handler';

function setup(overrides: Partial<ErrorHandlerDeps> = {}) {
  const deps: jest.Mocked<ErrorHandlerDeps> = {
    hasSession: jest.fn(() => true),
    recheckUser: jest.fn(async () => false),
    expireSession: jest.fn(),
    showError: jest.fn(),
    translate: jest.fn((key: string) => `t(${key})`),
    translateRule: jest.fn((key: string) => `rule(${key})`),
    ...overrides,
  } as jest.Mocked<ErrorHandlerDeps>;
  return { deps, handle: createErrorHandler(deps) };
}

const error = (status: number, url = '/api/job', body: object | null = { code: status, message: 'SHARED.ERROR.X' }) =>
  new ApiError(status, 'GET', url, body as never);

describe('the one error handler (spec section 8)', () => {
  it('ignores a 401 from /api/me', async () => {
    const { deps, handle } = setup();
    await handle(error(401, '/api/me'));
    await handle(error(401, 'http://localhost/api/me/'));
    expect(deps.recheckUser).not.toHaveBeenCalled();
    expect(deps.showError).not.toHaveBeenCalled();
  });

  it("re-checks the user on 401 and, if that fails, shows 'session expired' and logs out", async () => {
    const { deps, handle } = setup();
    await handle(error(401));
    expect(deps.recheckUser).toHaveBeenCalledTimes(1);
    expect(deps.showError).toHaveBeenCalledWith('t(SHARED.USER.SESSION_EXPIRED)');
    expect(deps.expireSession).toHaveBeenCalledTimes(1);
  });

  it('does nothing more on 401 when the re-check succeeds', async () => {
    const { deps, handle } = setup({ recheckUser: jest.fn(async () => true) });
    await handle(error(401));
    expect(deps.showError).not.toHaveBeenCalled();
    expect(deps.expireSession).not.toHaveBeenCalled();
  });

  it('re-checks once for several 401s at the same time and expires once', async () => {
    let hasSession = true;
    const { deps, handle } = setup({
      hasSession: jest.fn(() => hasSession),
      expireSession: jest.fn(() => {
        hasSession = false;
      }),
    });
    await Promise.all([handle(error(401)), handle(error(401)), handle(error(401))]);
    expect(deps.recheckUser).toHaveBeenCalledTimes(1);
    expect(deps.showError).toHaveBeenCalledTimes(1);
    expect(deps.expireSession).toHaveBeenCalledTimes(1);
  });

  it("leaves a guest's 401 to the caller", async () => {
    const { deps, handle } = setup({ hasSession: jest.fn(() => false) });
    await handle(error(401));
    expect(deps.recheckUser).not.toHaveBeenCalled();
    expect(deps.showError).not.toHaveBeenCalled();
  });

  it('shows each broken rule of a 422 as its own notification', async () => {
    const { deps, handle } = setup();
    await handle(
      error(422, '/api/user', {
        code: 422,
        message: 'SHARED.ERROR.VALIDATION',
        data: { brokenRules: ['VALIDATION.EMAIL.IS_EMAIL', 'VALIDATION.NAME.MAX_LENGTH'] },
      }),
    );
    expect(deps.showError.mock.calls).toEqual([['rule(VALIDATION.EMAIL.IS_EMAIL)'], ['rule(VALIDATION.NAME.MAX_LENGTH)']]);
  });

  it('shows the translated message of a 422 without broken rules', async () => {
    const { deps, handle } = setup();
    await handle(error(422, '/api/x', { code: 422, message: 'SHARED.USER.EMAIL_TAKEN' }));
    expect(deps.showError).toHaveBeenCalledWith('t(SHARED.USER.EMAIL_TAKEN)');
  });

  it('passes other errors on without a message, and acts only on bodies with a code of 400 or more', async () => {
    const { deps, handle } = setup();
    await handle(error(403));
    await handle(error(404));
    await handle(error(500));
    await handle(error(401, '/api/job', null));
    await handle(error(422, '/api/job', { code: 200, message: 'x' }));
    expect(deps.showError).not.toHaveBeenCalled();
    expect(deps.recheckUser).not.toHaveBeenCalled();
  });
});
