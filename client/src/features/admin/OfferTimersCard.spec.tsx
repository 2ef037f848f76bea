import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { renderWithMantine } from '../../../jest/render';
import { OfferTimersCard, parseDays } from './OfferTimersCard';

const SETTINGS = { instanceCode: 'I_one', offerExpiryDays: 14, finalizeAutoAcceptDays: 14, reminderDaysBefore: 2, paymentReminderDays: [3, 7] };
const fetchMock = jest.fn();
const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(body),
});
const onError = jest.fn();

beforeEach(() => {
  fetchMock.mockReset();
  onError.mockReset();
  fetchMock.mockImplementation(async (_url: string, init?: { method?: string; body?: string }) =>
    init?.method === 'PUT' ? answer(200, { ...SETTINGS, ...JSON.parse(init.body!) }) : answer(200, SETTINGS),
  );
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError });
});

describe('OfferTimersCard', () => {
  it("shows the instance's offer timers and saves the changed ones", async () => {
    renderWithMantine(<OfferTimersCard instanceCode="I_one" />);
    const expiry = await screen.findByTestId('timers-offer-expiry');
    expect(expiry).toHaveValue('14');
    expect(screen.getByTestId('timers-payment-reminders')).toHaveValue('3, 7');
    fireEvent.change(expiry, { target: { value: '30' } });
    fireEvent.change(screen.getByTestId('timers-payment-reminders'), { target: { value: '2, 5 9' } });
    await act(async () => fireEvent.click(screen.getByTestId('timers-save')));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT')!;
    expect(String(url)).toMatch(/\/api\/job-offers\/timers$/);
    expect(JSON.parse(init.body)).toEqual({ ...SETTINGS, offerExpiryDays: 30, paymentReminderDays: [2, 5, 9] });
  });

  it('reads a list of days, leaving anything else for the server to refuse', () => {
    expect(parseDays('3, 7')).toEqual([3, 7]);
    expect(parseDays('')).toEqual([]);
    expect(parseDays('3, x')).toEqual([3, NaN]);
  });
});
