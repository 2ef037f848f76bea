import { act, screen, waitFor, within } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { JobOffer } from '@/api/offer.api';
import { chatStore, resetChat } from '@/features/chat/chat.store';
import { applyOfferStatus, resetOffers } from '@/features/offers/offer.store';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { changeI18nLanguage } from '@/i18n/i18n';
import { sessionStore } from '@/features/session/session.store';
import { renderRoutes } from '../../../jest/render';
import { DashboardPage } from './DashboardPage';

const offer = (code: string, status: number, extra: Partial<JobOffer> = {}): JobOffer => ({
  code,
  status,
  deadline: null,
  price: { amount: '100.00', currency: 'USD' },
  localPrice: null,
  jobCode: `J_${code}`,
  groupCode: null,
  providerCode: 'U_p',
  customerCode: 'U_me',
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  lapsesAt: null,
  job: { code: `J_${code}`, title: `Job ${code}`, description: '', lang: 'eng', deadline: null },
  ...extra,
});

let mine: JobOffer[] = [];
let due: JobOffer[] = [];
const fetchMock = jest.fn(async (url: string) => {
  const path = new URL(url, 'http://x').pathname;
  const body =
    path === '/api/job'
      ? {
          jobs: [
            { code: 'J1', title: 'Open job', deadline: null, acceptingOffers: true },
            { code: 'J2', title: 'Closed job', deadline: null, acceptingOffers: false },
          ],
          hasMore: false,
        }
      : path === '/api/job-offers/for-payment'
        ? { offers: due, page: 1, pageSize: 100, hasMore: false }
        : { offers: mine, page: 1, pageSize: 100, hasMore: false };
  return { status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) };
});

beforeEach(() => {
  resetOffers();
  resetChat();
  preferencesStore.language = 'eng';
  sessionStore.user = { code: 'U_me', name: 'Ada', surname: 'L', avatar: null, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('dashboard', () => {
  it('shows offers waiting for my move, payments due, unread chats and my open jobs, each linking to its screen, and stays live', async () => {
    mine = [offer('a', 10), offer('b', 5), offer('c', 160)];
    due = [offer('c', 160)];
    chatStore.unread = { total: 3, groups: { G1: 2, G2: 1 } };
    renderRoutes([{ path: '/', element: <DashboardPage /> }], '/');

    const waiting = await screen.findByTestId('dashboard-waiting');
    await waitFor(() => expect(waiting).toHaveAttribute('data-count', '2'));
    expect(
      within(waiting)
        .getAllByTestId('dashboard-waiting-item')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/jobs/J_a/offers/a', '/jobs/J_c/offers/c']);
    expect(screen.getByTestId('dashboard-waiting-link')).toHaveAttribute('href', '/jobs/offers');
    // a and c wait for me (choose, pay); b, a Proposal, waits for the provider's final offer.
    expect(screen.getByTestId('dashboard-waiting-summary')).toHaveTextContent('2 offers wait for you');
    expect(screen.getByTestId('dashboard-waiting-other')).toHaveTextContent('1 waits for the other side');
    expect(screen.getByTestId('dashboard-due')).toHaveAttribute('data-count', '1');
    expect(screen.getByTestId('dashboard-due-amounts')).toHaveTextContent('To pay: $100.00');
    expect(screen.getByTestId('dashboard-due-link')).toHaveAttribute('href', '/jobs/payments');
    expect(screen.getByTestId('dashboard-unread')).toHaveAttribute('data-count', '3');
    expect(screen.getByTestId('dashboard-unread')).toHaveTextContent('New messages in 2 chats');
    expect(screen.getByTestId('dashboard-jobs')).toHaveAttribute('data-count', '1');
    expect(within(screen.getByTestId('dashboard-jobs')).getByTestId('dashboard-job-item')).toHaveAttribute('href', '/jobs/J1');

    // A push (the customer paid elsewhere) makes the cards look again.
    mine = [offer('a', 10), offer('b', 5), offer('c', 200)];
    due = [];
    act(() => applyOfferStatus({ jobCode: 'J_c', offerCode: 'c', status: 200, previousStatus: 160, actorCode: 'U_me', at: new Date().toISOString() }));
    await waitFor(() => expect(screen.getByTestId('dashboard-due')).toHaveAttribute('data-count', '0'));
    expect(screen.getByTestId('dashboard-waiting')).toHaveAttribute('data-count', '1');
    expect(screen.getByTestId('dashboard-waiting-summary')).toHaveTextContent('1 offer waits for you');
    expect(screen.getByTestId('dashboard-waiting-other')).toHaveTextContent('1 waits for the other side');
  });

  it('in Polish, says nothing waits for me and counts what waits for the other side', async () => {
    preferencesStore.language = 'pol';
    changeI18nLanguage('pol');
    mine = [offer('b', 5), offer('d', 100)];
    due = [];
    renderRoutes([{ path: '/', element: <DashboardPage /> }], '/');
    await waitFor(() => expect(screen.getByTestId('dashboard-waiting-other')).toHaveTextContent('2 czekają na drugą stronę'));
    expect(screen.getByTestId('dashboard-waiting-summary')).toHaveTextContent('Nic nie czeka na twój ruch.');
    changeI18nLanguage('eng');
  });
});
