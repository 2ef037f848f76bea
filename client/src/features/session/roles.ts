import type { Role as ContractRole } from '@contracts/roles';

/** Numeric roles of the spec (section 3); the role travels in the access token. */
export const Role = {
  Anonymous: -1,
  InstanceUser: 0,
  GlobalUser: 10,
  InstanceAdmin: 50,
  GlobalAdmin: 100,
} as const satisfies typeof ContractRole;

export type Role = (typeof Role)[keyof typeof Role];

export const LOGGED_IN_ROLES: readonly Role[] = [Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin];
export const ADMIN_ROLES: readonly Role[] = [Role.GlobalAdmin, Role.InstanceAdmin, Role.GlobalUser];
/** Instance admins in their instance and global admins everywhere moderate chats. */
export const MODERATOR_ROLES: readonly Role[] = [Role.GlobalAdmin, Role.InstanceAdmin];
