import { SetMetadata } from '@nestjs/common';
import { Role, RoleRule } from '#shared/contracts/roles';

export const ROLE_RULES = 'parley:roleRules';
export const RequireAnyRole = (...roles: Role[]) => SetMetadata(ROLE_RULES, { kind: 'any', roles } satisfies RoleRule);
export const RequireAllRoles = (...roles: Role[]) => SetMetadata(ROLE_RULES, { kind: 'all', roles } satisfies RoleRule);
export const RequireNoRole = (...roles: Role[]) => SetMetadata(ROLE_RULES, { kind: 'none', roles } satisfies RoleRule);
