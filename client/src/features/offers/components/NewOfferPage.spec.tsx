import { act, fireEvent, screen } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { renderRoutes } from '../../../../jest/render';
import { NewOfferPage } from './NewOfferPage';

/** The tab's socket, driven by the test. */
type Handler = (payload: unknown) => void;
const mockSocket = {
  handlers: new Map<string, Set<Handler>>(),
  on(event: string, handler: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
    return this;
  },
  off(event: string, handler: Handler) {
    this.handlers.get(event)?.delete(handler);
    return this;
  },
  fire(event: string, payload?: unknown) {
    act(() => this.handlers.get(event)?.forEach((h) => h(payload)));
  },
};
jest.mock('@/realtime/RealtimeConnection', () => ({
  realtimeConnection: () => ({ connect: () => mockSocket, socket: mockSocket }),
}));
// The form's own rules are tested with it (OfferForm.spec.tsx); here it only sends valid terms.
jest.mock('./OfferForm', () => ({
  OfferForm: ({ onSubmit }: { onSubmit: (terms: unknown, message: string) => void }) => (
    <button
      type="button"
      data-testid="offer-form-submit"
      onClick={() => onSubmit({ price: { amount: '10', currency: 'USD' }, deadline: '2030-01-01T10:00:00.000Z' }, '')}
    >
      send
    </button>
  ),
}));

const version = { lang: 'eng', title: 'Fix the gate', description: 'The hinges are loose.', isDefault: true };
const job = (acceptingOffers: boolean) => ({
  code: 'J_one',
  deadline: null,
  customerCode: 'U_cust',
  acceptingOffers,
  lang: 'eng',
  title: version.title,
  description: version.description,
  versions: [version],
  offerCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
});

let accepting = true;
const fetchMock = jest.fn(async (url: string, init: { method: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const [status, answer] =
    key === 'GET /api/job/J_one'
      ? [200, job(accepting)]
      : key === 'GET /api/jobs/J_one/offers'
        ? [200, { offers: [], page: 1, pageSize: 100, hasMore: false }]
        : key === 'POST /api/jobs/J_one/offers'
          ? [409, { code: 409, message: 'JOB.NOT_ACCEPTING_OFFERS' }]
          : [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

const settle = () =>
  act(async () => {
    for (let i = 0; i < 30; i++) await Promise.resolve();
  });

beforeEach(() => {
  accepting = true;
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
  preferencesStore.language = 'eng';
  sessionStore.user = { code: 'U_prov' } as typeof sessionStore.user;
});

const renderPage = async () => {
  renderRoutes([{ path: '*', element: <NewOfferPage jobCode="J_one" /> }], '/jobs/J_one/offers/new');
  await settle();
  await screen.findByTestId('offer-form-submit');
};

describe('make an offer', () => {
  it("takes the customer's 'taking offers' switch as it is pushed: the form gives way, and comes back", async () => {
    await renderPage();
    mockSocket.fire('job:updated', job(false));
    expect(screen.getByTestId('offer-new-refused')).toBeInTheDocument();
    expect(screen.queryByTestId('offer-form-submit')).toBeNull();
    mockSocket.fire('job:updated', { ...job(true), code: 'J_other', acceptingOffers: true });
    expect(screen.queryByTestId('offer-form-submit')).toBeNull();
    mockSocket.fire('job:updated', job(true));
    expect(screen.getByTestId('offer-form-submit')).toBeInTheDocument();
  });

  it('shows a refusal once, inline and not also as a toast, and then why (the job read again)', async () => {
    const toasts = jest.spyOn(notify, 'error');
    await renderPage();
    accepting = false; // stopped while this tab heard nothing
    fireEvent.click(screen.getByTestId('offer-form-submit'));
    await settle();
    expect(toasts).not.toHaveBeenCalled();
    expect(screen.getAllByText(/takes no more offers/)).toHaveLength(1);
    expect(screen.getByTestId('offer-new-refused')).toBeInTheDocument();
    toasts.mockRestore();
  });
});
