import { applyInstanceUpdate } from './instance-updates';
import { DEFAULT_INSTANCE, instanceStore } from './instance.store';

beforeEach(() => {
  instanceStore.current = { ...DEFAULT_INSTANCE, code: 'I_here' };
  instanceStore.stylesVersion = '';
});

describe('instance:updated', () => {
  it("takes the instance's new name, colours and logo, and a new style sheet version", () => {
    const push = { code: 'I_here', name: 'Acme jobs', color: 'abcdef', accent: '010203', logoUrl: '/assets/logo.svg', stylesVersion: 'v2' };
    expect(applyInstanceUpdate(push)).toBe(true);
    expect(instanceStore.current).toEqual({ code: 'I_here', name: 'Acme jobs', color: 'abcdef', accent: '010203', logoUrl: '/assets/logo.svg' });
    expect(instanceStore.stylesVersion).toBe('v2');
  });

  it('ignores a push about another instance than the one this host shows', () => {
    expect(applyInstanceUpdate({ code: 'I_other', name: 'Theirs', color: '000000', accent: '000000', logoUrl: null, stylesVersion: 'x' })).toBe(false);
    expect(instanceStore.current.name).toBe('Parley');
    expect(instanceStore.stylesVersion).toBe('');
  });
});
