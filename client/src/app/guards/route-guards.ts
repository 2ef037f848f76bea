import { paths } from '@/routes/paths';
import { ADMIN_ROLES, LOGGED_IN_ROLES, MODERATOR_ROLES, Role } from '@/features/session/roles';
import type { RouteGuard } from './guard-rules';

/** Any of the four logged-in roles (dashboard, projects). */
export const userRolesGuard: RouteGuard = { rules: [{ kind: 'any', roles: LOGGED_IN_ROLES }] };
/** Logged in, whatever the role (jobs, messages, premium pages, profiles). */
export const loggedInGuard: RouteGuard = { rules: [{ kind: 'none', roles: [Role.Anonymous] }] };
export const guestsOnlyGuard: RouteGuard = { rules: [{ kind: 'any', roles: [Role.Anonymous] }] };
export const adminGuard: RouteGuard = { rules: [{ kind: 'any', roles: ADMIN_ROLES }] };
/** Moderators: instance and global admins (the rooms view). */
export const moderatorGuard: RouteGuard = { rules: [{ kind: 'any', roles: MODERATOR_ROLES }] };
export const capsuleGuard: RouteGuard = {
  rules: [
    { kind: 'any', roles: [Role.Anonymous] },
    { kind: 'environment', environments: ['localhost'] },
  ],
};

/** The route table's "who may enter" column (spec section 2). */
export const routeGuards: Record<string, RouteGuard> = {
  [paths.dashboard]: userRolesGuard,
  [paths.auth]: guestsOnlyGuard,
  [paths.register]: guestsOnlyGuard,
  [paths.authCallback]: guestsOnlyGuard,
  [paths.projects]: userRolesGuard,
  [paths.projectEstimate]: userRolesGuard,
  [paths.projectRepo]: userRolesGuard,
  [paths.projectPipeline]: userRolesGuard,
  [paths.admin]: adminGuard,
  [paths.adminRooms]: moderatorGuard,
  [paths.adminReports]: moderatorGuard,
  [paths.adminRoom]: moderatorGuard,
  [paths.capsule]: capsuleGuard,
};

/** Every path not named above needs a login (jobs, messages, premium pages, profiles). */
export const guardFor = (path: string): RouteGuard => routeGuards[path] ?? loggedInGuard;
