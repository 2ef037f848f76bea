import { isGlobalRole, Role, roleRuleAllows } from './roles';

const ALL = [Role.Anonymous, Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin];
const allowedAmong = (kind: 'any' | 'all' | 'none', roles: Role[]) => ALL.filter((role) => roleRuleAllows({ kind, roles }, role));

describe('roleRuleAllows', () => {
  it('any: only the listed roles', () => {
    expect(allowedAmong('any', [Role.GlobalAdmin, Role.InstanceAdmin, Role.GlobalUser])).toEqual([Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin]);
    expect(allowedAmong('any', [Role.Anonymous])).toEqual([Role.Anonymous]);
  });

  it('all: a user holds one role, so only a list of that one role (repeated or not) allows', () => {
    expect(allowedAmong('all', [Role.InstanceAdmin])).toEqual([Role.InstanceAdmin]);
    expect(allowedAmong('all', [Role.InstanceAdmin, Role.InstanceAdmin])).toEqual([Role.InstanceAdmin]);
    expect(allowedAmong('all', [Role.InstanceAdmin, Role.GlobalAdmin])).toEqual([]);
  });

  it('none: every role but the listed ones (the auth pages use none of the logged-in roles)', () => {
    expect(allowedAmong('none', [Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin])).toEqual([Role.Anonymous]);
    expect(allowedAmong('none', [Role.Anonymous])).toEqual([Role.InstanceUser, Role.GlobalUser, Role.InstanceAdmin, Role.GlobalAdmin]);
  });

  it.each(['any', 'all', 'none'] as const)('%s with no roles allows anyone', (kind) => {
    expect(allowedAmong(kind, [])).toEqual(ALL);
  });

  it('refuses a number that is no role', () => {
    expect(roleRuleAllows({ kind: 'any', roles: [Role.InstanceUser] }, 1)).toBe(false);
  });
});

describe('role helpers', () => {
  it('global roles see every instance', () => {
    expect(ALL.filter(isGlobalRole)).toEqual([Role.GlobalUser, Role.GlobalAdmin]);
  });
});
