import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { setLanguage } from '@/features/preferences/preferences.store';
import { renderRoutes } from '../../../jest/render';
import { NotificationSettingsPage } from './NotificationSettingsPage';

const ALL_ON = { messages: true, offers: true, payments: true };
let stored: unknown;
let refuse = false;
const puts: unknown[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  let answer: [number, unknown] = [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  if (key === 'GET /api/me/notifications') answer = [200, stored];
  if (key === 'PUT /api/me/notifications') {
    puts.push(JSON.parse(init.body ?? 'null'));
    answer = refuse
      ? [422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['quietHours.start'] } }]
      : [200, (stored = JSON.parse(init.body ?? 'null'))];
  }
  const [status, body] = answer;
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) };
});

beforeEach(() => {
  stored = { push: ALL_ON, email: ALL_ON, quietHours: null };
  refuse = false;
  puts.length = 0;
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => act(() => setLanguage('eng')));

const render = () => renderRoutes([{ path: '/settings/notifications', element: <NotificationSettingsPage /> }], '/settings/notifications');

describe('notification settings page', () => {
  it('shows the switches as stored, and saves a kind switched off per channel and quiet hours', async () => {
    render();
    expect(await screen.findByTestId('notify-push-messages')).toBeChecked();
    expect(screen.getByTestId('notify-email-payments')).toBeChecked();
    expect(screen.queryByTestId('quiet-start')).toBeNull();

    fireEvent.click(screen.getByTestId('notify-email-messages'));
    fireEvent.click(screen.getByTestId('notify-push-offers'));
    fireEvent.click(screen.getByTestId('quiet-hours'));
    fireEvent.change(screen.getByTestId('quiet-start'), { target: { value: '23:30' } });
    fireEvent.click(screen.getByTestId('notification-settings-save'));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      push: { messages: true, offers: false, payments: true },
      email: { messages: false, offers: true, payments: true },
      quietHours: { start: '23:30', end: '07:00' },
    });
  });

  it('shows stored quiet hours and clears them', async () => {
    stored = { push: ALL_ON, email: { ...ALL_ON, offers: false }, quietHours: { start: '21:00', end: '06:15' } };
    render();
    expect(await screen.findByTestId('quiet-start')).toHaveValue('21:00');
    expect(screen.getByTestId('quiet-end')).toHaveValue('06:15');
    expect(screen.getByTestId('notify-email-offers')).not.toBeChecked();
    fireEvent.click(screen.getByTestId('quiet-hours'));
    fireEvent.click(screen.getByTestId('notification-settings-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ quietHours: null });
  });

  it('keeps the form as it was when the server refuses it', async () => {
    refuse = true;
    render();
    fireEvent.click(await screen.findByTestId('notify-push-payments'));
    fireEvent.click(screen.getByTestId('notification-settings-save'));
    await waitFor(() => expect(puts).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('notification-settings-save')).not.toHaveAttribute('data-loading'));
    expect(screen.getByTestId('notify-push-payments')).not.toBeChecked();
  });

  it('speaks Polish', async () => {
    act(() => setLanguage('pol'));
    render();
    expect(await screen.findByText('Ustawienia powiadomień')).toBeInTheDocument();
    expect(screen.getByText('Zmiany ofert')).toBeInTheDocument();
    expect(screen.getByText('Godziny ciszy')).toBeInTheDocument();
  });
});
