import { Role } from '@/features/session/roles';
import { paths } from '@/routes/paths';
import { type Environment, createGuardCache, environmentOf, evaluateGuard, ruleAllows } from './guard-rules';
import { adminGuard, capsuleGuard, guardFor, guestsOnlyGuard, loggedInGuard, userRolesGuard } from './route-guards';

const local: { environment: Environment } = { environment: 'localhost' };
const prod: { environment: Environment } = { environment: 'production' };

describe('environmentOf', () => {
  it.each([
    ['localhost', 'localhost'],
    ['127.0.0.1', 'localhost'],
    ['app.localhost', 'localhost'],
    ['dev.parley.io', 'dev'],
    ['beta.parley.io', 'beta'],
    ['staging.parley.io', 'staging'],
    ['parley.io', 'production'],
    ['www.parley.io', 'production'],
    ['a.www.parley.io', null],
  ])('%s is %s', (host, env) => {
    expect(environmentOf(host)).toBe(env);
  });
});

describe('rule kinds', () => {
  it('any: one of the roles', () => {
    expect(ruleAllows({ kind: 'any', roles: [Role.GlobalAdmin, Role.InstanceAdmin] }, { role: Role.InstanceAdmin, ...prod })).toBe(true);
    expect(ruleAllows({ kind: 'any', roles: [Role.GlobalAdmin] }, { role: Role.InstanceUser, ...prod })).toBe(false);
  });

  it('all: every listed role must be the user role', () => {
    expect(ruleAllows({ kind: 'all', roles: [Role.GlobalUser] }, { role: Role.GlobalUser, ...prod })).toBe(true);
    expect(ruleAllows({ kind: 'all', roles: [Role.GlobalUser, Role.GlobalAdmin] }, { role: Role.GlobalUser, ...prod })).toBe(false);
  });

  it('none: none of the roles', () => {
    expect(ruleAllows({ kind: 'none', roles: [Role.Anonymous] }, { role: Role.InstanceUser, ...prod })).toBe(true);
    expect(ruleAllows({ kind: 'none', roles: [Role.Anonymous] }, { role: Role.Anonymous, ...prod })).toBe(false);
  });

  it('no roles means anyone', () => {
    for (const kind of ['any', 'all', 'none'] as const) {
      expect(ruleAllows({ kind, roles: [] }, { role: Role.Anonymous, ...prod })).toBe(true);
    }
  });

  it('environment: only the listed environments', () => {
    expect(ruleAllows({ kind: 'environment', environments: ['localhost'] }, { role: Role.Anonymous, ...local })).toBe(true);
    expect(ruleAllows({ kind: 'environment', environments: ['localhost'] }, { role: Role.Anonymous, ...prod })).toBe(false);
    expect(ruleAllows({ kind: 'environment', environments: ['production'] }, { role: Role.Anonymous, environment: null })).toBe(false);
  });

  it('an unsupported kind never allows', () => {
    expect(ruleAllows({ kind: 'custom' } as never, { role: Role.GlobalAdmin, ...prod })).toBe(false);
  });
});

describe('route guards (spec sections 2 and 6)', () => {
  const outcome = (path: string, role: number, env = prod) => evaluateGuard(guardFor(path), { role, ...env });

  it('sends guests to login for pages that need a login', () => {
    for (const path of [paths.dashboard, paths.jobs, paths.messages, paths.projects, paths.team, paths.admin, paths.userProfile]) {
      expect(outcome(path, Role.Anonymous)).toBe('login');
    }
  });

  it('lets every logged-in role into the dashboard, projects, jobs, messages and premium pages', () => {
    for (const role of [Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin]) {
      for (const path of [paths.dashboard, paths.projects, paths.jobs, paths.messageGroup, paths.courses, paths.users]) {
        expect(outcome(path, role)).toBe('allow');
      }
    }
  });

  it('admin: global admin, instance admin and global user only', () => {
    expect(outcome(paths.admin, Role.GlobalAdmin)).toBe('allow');
    expect(outcome(paths.admin, Role.InstanceAdmin)).toBe('allow');
    expect(outcome(paths.admin, Role.GlobalUser)).toBe('allow');
    expect(outcome(paths.admin, Role.InstanceUser)).toBe('deny');
  });

  it('auth pages are for guests only', () => {
    expect(outcome(paths.auth, Role.Anonymous)).toBe('allow');
    expect(outcome(paths.register, Role.Anonymous)).toBe('allow');
    expect(outcome(paths.auth, Role.InstanceUser)).toBe('deny');
  });

  it('capsule: anonymous users on localhost only, and logging in never helps', () => {
    expect(outcome(paths.capsule, Role.Anonymous, local)).toBe('allow');
    expect(outcome(paths.capsule, Role.Anonymous, prod)).toBe('deny');
    expect(outcome(paths.capsule, Role.GlobalAdmin, local)).toBe('deny');
  });

  it('names the guards it uses', () => {
    expect(guardFor(paths.capsule)).toBe(capsuleGuard);
    expect(guardFor(paths.auth)).toBe(guestsOnlyGuard);
    expect(guardFor(paths.admin)).toBe(adminGuard);
    expect(guardFor(paths.projectPipeline)).toBe(userRolesGuard);
    expect(guardFor(paths.blog)).toBe(loggedInGuard);
  });
});

describe('guard cache', () => {
  it('caches per path and key, and recomputes for another role or after clear', () => {
    const cache = createGuardCache();
    const guard = { rules: [{ kind: 'environment' as const, environments: ['production' as const] }] };
    const ctx = { role: Role.InstanceUser, ...prod };
    expect(cache.resolve('/a', guard, ctx)).toBe('allow');
    expect(cache.resolve('/a', guard, { ...ctx, environment: 'localhost' })).toBe('allow'); // cached
    expect(cache.resolve('/a', { ...guard, key: 'k' }, { ...ctx, environment: 'localhost' })).toBe('deny'); // own key
    expect(cache.size).toBe(2);
    expect(cache.resolve('/a', guard, { role: Role.GlobalAdmin, environment: 'localhost' })).toBe('deny'); // other role
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.resolve('/a', guard, { ...ctx, environment: 'localhost' })).toBe('deny');
  });
});
