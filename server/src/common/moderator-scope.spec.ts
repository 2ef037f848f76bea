import { Role } from '#shared/contracts/roles';
import { moderatedInstanceFilter, moderatesInstance, moderatorScope, moderatorScopeParam } from './moderator-scope';

const HOME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const as = (role: Role) => ({ role, instanceId: HOME });

describe('moderatorScope', () => {
  it('global admins moderate every instance, instance admins their own, other roles none', () => {
    expect(moderatorScope(as(Role.GlobalAdmin))).toEqual({ kind: 'all' });
    expect(moderatorScope(as(Role.InstanceAdmin))).toEqual({ kind: 'instance', instanceId: HOME });
    for (const role of [Role.Anonymous, Role.InstanceUser, Role.GlobalUser]) expect(moderatorScope(as(role))).toEqual({ kind: 'none' });
  });
});

describe('moderatesInstance', () => {
  it('an instance admin moderates their own instance only', () => {
    expect(moderatesInstance(as(Role.InstanceAdmin), HOME)).toBe(true);
    expect(moderatesInstance(as(Role.InstanceAdmin), OTHER)).toBe(false);
  });

  it('a global admin moderates any instance', () => {
    expect(moderatesInstance(as(Role.GlobalAdmin), HOME)).toBe(true);
    expect(moderatesInstance(as(Role.GlobalAdmin), OTHER)).toBe(true);
  });

  it('a global user sees every instance but moderates none, like an instance user', () => {
    for (const role of [Role.InstanceUser, Role.GlobalUser]) {
      expect(moderatesInstance(as(role), HOME)).toBe(false);
      expect(moderatesInstance(as(role), OTHER)).toBe(false);
    }
  });
});

describe('moderatedInstanceFilter', () => {
  it('null (every instance) for global admins only; anyone else is held to their own instance', () => {
    expect(moderatedInstanceFilter(as(Role.GlobalAdmin))).toBeNull();
    expect(moderatedInstanceFilter(as(Role.InstanceAdmin))).toBe(HOME);
    expect(moderatedInstanceFilter(as(Role.GlobalUser))).toBe(HOME);
  });
});

describe('moderatorScopeParam', () => {
  it('writes a scope as one SQL text parameter', () => {
    expect(moderatorScopeParam({ kind: 'all' })).toBe('all');
    expect(moderatorScopeParam({ kind: 'instance', instanceId: HOME })).toBe(HOME);
    expect(moderatorScopeParam({ kind: 'none' })).toBe('');
  });
});
