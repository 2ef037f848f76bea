import type { UserType } from '@contracts/users';

/** The user kinds (shared/contracts/users.ts) as values, checked against the contract name by name. */
export const USER_TYPE = { Personal: 1, Company: 2 } as const satisfies typeof UserType;
