import { act, screen } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { instanceStore } from '@/features/instance/instance.store';
import { renderWithMantine } from '../../../jest/render';
import { AdminPage } from './AdminPage';

const FULL = {
  code: 'I_one',
  name: 'Acme',
  color: '12b886',
  accent: 'fa5252',
  logoUrl: null,
  customCss: 'body { margin: 0; }',
  hosts: [],
  isDefault: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const fetchMock = jest.fn(async (url: string) => {
  const found = String(url).endsWith('/api/Instance/I_one');
  return { status: found ? 200 : 404, ok: found, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(found ? FULL : { code: 404 }) };
});

beforeEach(() => {
  instanceStore.current = { code: 'I_one', name: 'Acme', color: '12b886', accent: 'fa5252', logoUrl: null };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('AdminPage', () => {
  it('fills the form with the full instance, custom CSS included, once it is read', async () => {
    renderWithMantine(<AdminPage />);
    await act(async () => {
      for (let i = 0; i < 30; i++) await Promise.resolve();
    });
    expect(screen.getByLabelText(/Custom CSS/i)).toHaveValue('body { margin: 0; }');
    expect(screen.getByTestId('admin-name')).toHaveValue('Acme');
  });
});
