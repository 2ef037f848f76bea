/** Numeric roles as the product spec defines them; the role travels in the access token. */
export enum Role {
  Anonymous = -1,
  InstanceUser = 0,
  GlobalUser = 10,
  InstanceAdmin = 50,
  GlobalAdmin = 100,
}

export const LOGGED_IN_ROLES = [Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin] as const;

/** Global roles see every instance; the others only their own. */
export const isGlobalRole = (role: number): boolean => role === Role.GlobalUser || role === Role.GlobalAdmin;

export type RoleRule = { kind: 'any' | 'all' | 'none'; roles: Role[] };

/** The spec's guard rules: require any / all / none of the roles. A user holds exactly one role. */
export function roleRuleAllows(rule: RoleRule, role: number): boolean {
  if (rule.roles.length === 0) return true;
  switch (rule.kind) {
    case 'any':
      return rule.roles.includes(role);
    case 'all':
      return rule.roles.every((r) => r === role);
    case 'none':
      return !rule.roles.includes(role);
  }
}
