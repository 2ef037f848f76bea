import { buildInstanceChanges } from './instance-form';

const initial = { name: 'Parley', color: '#228be6', accent: '#7950f2', logoUrl: '', customCss: 'a{}' };

describe('instance form changes', () => {
  it('sends only changed fields, colours without #', () => {
    expect(buildInstanceChanges(initial, initial)).toEqual({});
    expect(buildInstanceChanges({ ...initial, color: '#E8590C', name: ' Acme ' }, initial)).toEqual({ color: 'e8590c', name: 'Acme' });
    expect(buildInstanceChanges({ ...initial, accent: '228BE6' }, initial)).toEqual({ accent: '228be6' });
  });

  it('clears the logo with null and keeps custom CSS unless edited', () => {
    expect(buildInstanceChanges(initial, { ...initial, logoUrl: '/logo.png' })).toEqual({ logoUrl: null });
    expect(buildInstanceChanges({ ...initial, customCss: '' }, initial)).toEqual({ customCss: '' });
  });

  it('never sends an invalid colour', () => {
    expect(buildInstanceChanges({ ...initial, color: '#12' }, initial)).toEqual({});
  });
});
