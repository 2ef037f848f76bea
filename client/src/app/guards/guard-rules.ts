import { LOGGED_IN_ROLES, Role } from '@/features/session/roles';

export type Environment = 'localhost' | 'dev' | 'beta' | 'staging' | 'production';

/** The four rule kinds of the spec (section 6); an empty role list means anyone. */
export type GuardRule = { kind: 'any' | 'all' | 'none'; roles: readonly Role[] } | { kind: 'environment'; environments: readonly Environment[] };

/** A route's guard: every rule must allow. `key` separates cached results of one path. */
export interface RouteGuard {
  rules: readonly GuardRule[];
  key?: string;
}

/** allow: enter; login: a guest who may enter after logging in; deny: not for this user here. */
export type GuardOutcome = 'allow' | 'login' | 'deny';

export interface GuardContext {
  role: number;
  environment: Environment | null;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** localhost, dev., beta., staging., or production (a host of at most 3 dot parts); null otherwise. */
export function environmentOf(hostname: string): Environment | null {
  const host = hostname.toLowerCase();
  if (LOCAL_HOSTS.has(host) || host.endsWith('.localhost')) return 'localhost';
  if (host.startsWith('dev.')) return 'dev';
  if (host.startsWith('beta.')) return 'beta';
  if (host.startsWith('staging.')) return 'staging';
  return host.split('.').length <= 3 ? 'production' : null;
}

export function ruleAllows(rule: GuardRule, ctx: GuardContext): boolean {
  switch (rule.kind) {
    case 'any':
      return rule.roles.length === 0 || rule.roles.includes(ctx.role as Role);
    case 'all':
      // A user holds exactly one role, so "all" holds only when every listed role is that role.
      return rule.roles.length === 0 || rule.roles.every((r) => r === ctx.role);
    case 'none':
      return rule.roles.length === 0 || !rule.roles.includes(ctx.role as Role);
    case 'environment':
      return ctx.environment !== null && rule.environments.includes(ctx.environment);
    default:
      // Guard kinds other than these are unsupported, and an unsupported guard never lets anyone in.
      return false;
  }
}

export function evaluateGuard(guard: RouteGuard, ctx: GuardContext): GuardOutcome {
  if (guard.rules.every((rule) => ruleAllows(rule, ctx))) return 'allow';
  if (ctx.role !== Role.Anonymous) return 'deny';
  const loginWouldHelp = LOGGED_IN_ROLES.some((role) => guard.rules.every((rule) => ruleAllows(rule, { ...ctx, role })));
  return loginWouldHelp ? 'login' : 'deny';
}

/** Guard results cached per route path and optional key, until the session changes and clears them. */
export function createGuardCache() {
  const results = new Map<string, { role: number; outcome: GuardOutcome }>();
  return {
    resolve(path: string, guard: RouteGuard, ctx: GuardContext): GuardOutcome {
      const cacheKey = `${path}#${guard.key ?? ''}`;
      const hit = results.get(cacheKey);
      if (hit && hit.role === ctx.role) return hit.outcome;
      const outcome = evaluateGuard(guard, ctx);
      results.set(cacheKey, { role: ctx.role, outcome });
      return outcome;
    },
    clear(): void {
      results.clear();
    },
    get size(): number {
      return results.size;
    },
  };
}

export type GuardCache = ReturnType<typeof createGuardCache>;
