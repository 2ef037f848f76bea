import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';

/**
 * The one rule of who moderates what: instance admins moderate their own instance, global admins every
 * instance, everybody else none. Every access check and every moderator's list asks here.
 */
export type ModeratorScope = { kind: 'none' } | { kind: 'instance'; instanceId: string } | { kind: 'all' };

type ScopedUser = Pick<AuthUser, 'role' | 'instanceId'>;

export function moderatorScope(user: ScopedUser): ModeratorScope {
  if (user.role === Role.GlobalAdmin) return { kind: 'all' };
  if (user.role === Role.InstanceAdmin) return { kind: 'instance', instanceId: user.instanceId };
  return { kind: 'none' };
}

/** Whether the user moderates this instance (and so its chats, offers and files). */
export function moderatesInstance(user: ScopedUser, instanceId: string): boolean {
  const scope = moderatorScope(user);
  return scope.kind === 'all' || (scope.kind === 'instance' && scope.instanceId === instanceId);
}

/**
 * The instance a moderator's lists (audit log, busiest rooms, notifications) are limited to, or null for
 * every instance. Only global admins see every instance; anyone else is held to their own.
 */
export function moderatedInstanceFilter(user: ScopedUser): string | null {
  return moderatorScope(user).kind === 'all' ? null : user.instanceId;
}

/** A scope as one SQL text parameter: 'all', the moderated instance's id, or '' for none (compare with instance_id::text). */
export function moderatorScopeParam(scope: ModeratorScope): string {
  if (scope.kind === 'all') return 'all';
  return scope.kind === 'instance' ? scope.instanceId : '';
}
