import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { JobOffer } from '@/api/offer.api';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { offerUi } from '../offer.actions';
import { applyOfferStatus, offerStore, resetOffers, storeOffer } from '../offer.store';
import { JobOfferThumbnail } from './JobOfferThumbnail';
import { OfferActions } from './OfferActions';
import { OfferLapse } from './OfferLapse';
import { i18n } from '@/i18n/i18n';
import { OfferRow } from './OfferRow';

const OFFER: JobOffer = {
  code: 'O_one',
  status: 160,
  deadline: '2026-12-02T13:30:00.000Z',
  price: { amount: '2400.00', currency: 'PLN' },
  localPrice: null,
  jobCode: 'J_one',
  groupCode: 'G_one',
  providerCode: 'U_p',
  customerCode: 'U_c',
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 7,
  lapsesAt: null,
  job: { code: 'J_one', title: 'Paint the fence', description: 'A long enough description', lang: 'eng', deadline: null },
};

type Answer = [number, unknown];
let answers: Record<string, () => Answer> = {};
const calls: { method: string; url: string; headers: Record<string, string> }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; headers: Record<string, string> }) => {
  calls.push({ method: init.method, url, headers: init.headers });
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const [status, body] = answers[key]?.() ?? [404, { code: 404, message: 'JOB_OFFER.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) };
});

const renderUi = (ui: React.ReactNode) =>
  render(
    <MantineProvider env="test">
      <Notifications />
      <MemoryRouter>{ui}</MemoryRouter>
    </MantineProvider>,
  );

beforeEach(() => {
  resetOffers();
  offerUi.busy = {};
  offerUi.conflict = {};
  answers = {};
  calls.length = 0;
  preferencesStore.language = 'eng';
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('job offer thumbnail', () => {
  it('shows a loader while the offer loads, then its title, price per locale, status and a View link', async () => {
    let release: (a: Answer) => void = () => undefined;
    answers['GET /api/jobs/offers/O_one'] = () => [200, OFFER];
    fetchMock.mockImplementationOnce(
      (url, init) =>
        new Promise((resolve) => {
          release = () => resolve({ status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(OFFER) });
          calls.push({ method: init.method, url, headers: init.headers });
        }),
    );
    renderUi(<JobOfferThumbnail offerCode="O_one" />);
    expect(screen.getByTestId('offer-thumbnail')).toHaveAttribute('data-state', 'loading');
    expect(screen.getByLabelText('Loading the offer')).toBeInTheDocument();
    await act(async () => release([200, OFFER]));
    await waitFor(() => expect(screen.getByTestId('offer-thumbnail')).toHaveAttribute('data-state', 'loaded'));
    expect(screen.getByText('Offer: Paint the fence')).toBeInTheDocument();
    expect(screen.getByTestId('chat-info-price').textContent?.replace(/\s/g, ' ')).toBe('PLN 2,400.00');
    expect(screen.getByTestId('chat-info-status')).toHaveTextContent('Payment pending');
    expect(screen.getByTestId('chat-info-view')).toHaveAttribute('href', '/jobs/J_one/offers/O_one');
    expect(calls[0].url).toBe('/api/jobs/offers/O_one?lang=eng');
  });

  it("shows the spec's 'not found' notice when the offer cannot be loaded", async () => {
    renderUi(<JobOfferThumbnail offerCode="O_gone" />);
    expect(await screen.findByText('Job offer not found')).toBeInTheDocument();
    expect(screen.getByTestId('offer-thumbnail')).toHaveAttribute('data-state', 'missing');
    expect(screen.queryByTestId('chat-info-view')).toBeNull();
  });

  it('shows the price in Polish as "2 400,00 zł"', async () => {
    preferencesStore.language = 'pol';
    storeOffer(OFFER);
    renderUi(<JobOfferThumbnail offerCode="O_one" />);
    expect(screen.getByTestId('chat-info-price').textContent?.replace(/[\u00a0\u202f]/g, ' ')).toBe('2 400,00 zł');
  });
});

describe('offer actions', () => {
  it('shows each side only its moves in this status, and a moderator none', () => {
    const { unmount } = renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side="provider" />);
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('data-testid'))).toEqual([
      'offer-action-update',
      'offer-action-final',
      'offer-action-withdraw',
    ]);
    unmount();
    renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side={null} />);
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('shows the provider, not the customer, the buttons to confirm or dispute a declared payment, and confirms it', async () => {
    const declared = { ...OFFER, status: 180 };
    storeOffer(declared);
    answers['POST /api/jobs/J_one/offers/O_one/confirmPayment'] = () => [200, { offer: { ...declared, status: 200, version: 9 }, payment: { code: 'P1' } }];
    const { unmount } = renderUi(<OfferActions offer={declared} side="customer" />);
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.getByTestId('offer-waiting')).toHaveTextContent('Waiting for the provider to confirm the payment arrived');
    unmount();
    renderUi(<OfferActions offer={declared} side="provider" />);
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('data-testid'))).toEqual(['offer-action-confirmPayment', 'offer-action-disputePayment']);
    expect(screen.getByTestId('offer-action-confirmPayment')).toHaveTextContent('Confirm the payment arrived');
    fireEvent.click(screen.getByTestId('offer-action-confirmPayment'));
    fireEvent.click(await screen.findByTestId('confirm-yes'));
    await waitFor(() => expect(offerStore.byCode.O_one).toMatchObject({ state: 'loaded', offer: { status: 200 } }));
    expect(calls.filter((c) => c.url.includes('/confirmPayment'))).toHaveLength(1);
  });

  it("tells the customer at Proposal what the offer waits for and what they can do after it; Reject comes as 'you can also'", () => {
    renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side="customer" />);
    expect(screen.getByTestId('offer-waiting')).toHaveTextContent("Waiting for the provider's final offer");
    expect(screen.getByTestId('offer-waiting')).toHaveAttribute('data-yours', 'false');
    expect(screen.getByTestId('offer-then')).toHaveTextContent('Then you can: Choose this offer');
    expect(screen.getByRole('group', { name: 'You can also' })).toContainElement(screen.getByTestId('offer-action-reject'));
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('data-testid'))).toEqual(['offer-action-reject']);
  });

  it.each([
    [5, 'provider', 'Your move: when the price and the deadline are right, make it your final offer.', true],
    [10, 'provider', 'Waiting for the customer to choose this offer', false],
    [10, 'customer', 'Your move: choose this offer if it suits you', true],
    [100, 'customer', 'Waiting for the provider to do the work and ask to finalise it', false],
    [160, 'provider', "Waiting for the customer's payment", false],
    [200, 'customer', 'The offer is closed: there are no more moves.', false],
  ] as const)('status %i, %s: says "%s"', (status, side, text, yours) => {
    renderUi(<OfferActions offer={{ ...OFFER, status }} side={side} />);
    expect(screen.getByTestId('offer-waiting')).toHaveTextContent(text);
    expect(screen.getByTestId('offer-waiting')).toHaveAttribute('data-yours', String(yours));
  });

  it('tells a moderator the state in words, with no buttons and no "then you can"', () => {
    renderUi(<OfferActions offer={{ ...OFFER, status: 130 }} side={null} />);
    expect(screen.getByTestId('offer-waiting')).toHaveTextContent('Waiting for the customer to accept the work');
    expect(screen.queryByTestId('offer-then')).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it.each(['final', 'withdraw'] as const)('confirms %s in a popover anchored to its button, not a notification, and Cancel sends nothing', async (call) => {
    renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side="provider" />);
    const button = screen.getByTestId(`offer-action-${call}`);
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveAttribute('data-testid', `offer-confirm-${call}`);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', dialog.id);
    expect(document.querySelector('[data-kind="confirm"]')).toBeNull();
    fireEvent.click(screen.getByTestId('confirm-no'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);
  });

  it('chooses in the same popover, with the "keep taking offers" choice, and says the result beside the buttons', async () => {
    const final = { ...OFFER, status: 10 };
    storeOffer(final);
    answers['POST /api/jobs/J_one/offers/O_one/choose'] = () => [200, { offer: { ...final, status: 50, version: 8 } }];
    renderUi(<OfferActions offer={final} side="customer" />);
    fireEvent.click(screen.getByTestId('offer-action-choose'));
    expect(await screen.findByTestId('offer-confirm-choose')).toContainElement(screen.getByTestId('offer-allow-more'));
    fireEvent.click(screen.getByTestId('offer-choose-confirm'));
    expect(await screen.findByTestId('offer-moved')).toHaveTextContent('Done. The offer is now: ');
    expect(calls[0].url).toContain('/choose');
    expect(document.querySelector('[data-kind="success"]')).toBeNull();
  });

  it('pays once for a double click, with an Idempotency-Key, and takes the answer', async () => {
    storeOffer(OFFER);
    answers['POST /api/jobs/J_one/offers/O_one/pay'] = () => [200, { offer: { ...OFFER, status: 200, version: 8 }, payment: { code: 'P1' } }];
    renderUi(<OfferActions offer={OFFER} side="customer" />);
    fireEvent.click(screen.getByTestId('offer-action-pay'));
    expect(screen.getByTestId('offer-action-pay')).toHaveTextContent('Pay PLN');
    fireEvent.change(screen.getByTestId('offer-pay-reference'), { target: { value: 'transfer 7' } });
    const confirm = await screen.findByTestId('offer-pay-confirm');
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await waitFor(() => expect(offerStore.byCode.O_one).toMatchObject({ state: 'loaded', offer: { status: 200 } }));
    const pays = calls.filter((c) => c.url.includes('/pay'));
    expect(pays).toHaveLength(1);
    expect(pays[0].headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_.:-]{8,100}$/);
    expect(pays[0].headers['Idempotency-Key']).toContain('O_one:pay:v7');
  });

  it('explains a 409 and shows the offer as it is now', async () => {
    storeOffer({ ...OFFER, status: 5 });
    answers['POST /api/jobs/J_one/offers/O_one/withdraw'] = () => [409, { code: 409, message: 'JOB_OFFER.CHANGED_MEANWHILE' }];
    answers['GET /api/jobs/offers/O_one'] = () => [200, { ...OFFER, status: 10, version: 9 }];
    renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side="provider" />);
    fireEvent.click(screen.getByTestId('offer-action-withdraw'));
    fireEvent.click(await screen.findByTestId('confirm-yes'));
    expect(await screen.findByTestId('offer-conflict')).toHaveTextContent('The offer was changed meanwhile');
    await waitFor(() => expect(offerStore.byCode.O_one).toMatchObject({ offer: { status: 10, version: 9 } }));
  });

  it('closes a confirmation whose move the offer no longer allows (it moved on meanwhile) and says so', async () => {
    const { rerender } = renderUi(<OfferActions offer={{ ...OFFER, status: 5 }} side="provider" />);
    fireEvent.click(screen.getByTestId('offer-action-final'));
    await screen.findByTestId('offer-confirm-final');
    rerender(
      <MantineProvider env="test">
        <Notifications />
        <MemoryRouter>
          <OfferActions offer={{ ...OFFER, status: 10, version: 8 }} side="provider" />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(await screen.findByTestId('offer-conflict')).toHaveTextContent('The offer cannot take this step in its current status');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('offer-waiting')).toHaveTextContent('Waiting for the customer to choose this offer');
    expect(calls).toEqual([]);
  });

  it('keeps a pushed revision: price, deadline and version move on, an older push does not undo them', () => {
    storeOffer({ ...OFFER, status: 5, version: 3 });
    applyOfferStatus({
      jobCode: 'J_one',
      offerCode: 'O_one',
      status: 5,
      previousStatus: 5,
      actorCode: 'U_p',
      at: '2026-01-02T00:00:00.000Z',
      price: { amount: '99.00', currency: 'USD' },
      localPrice: { amount: '99.00', currency: 'USD' },
      deadline: '2027-01-01T00:00:00.000Z',
      version: 4,
    });
    applyOfferStatus({
      jobCode: 'J_one',
      offerCode: 'O_one',
      status: 5,
      previousStatus: 5,
      actorCode: 'U_p',
      at: '2026-01-03T00:00:00.000Z',
      price: { amount: '1.00', currency: 'USD' },
      version: 3,
    });
    expect(offerStore.byCode.O_one).toMatchObject({ offer: { price: { amount: '99.00' }, deadline: '2027-01-01T00:00:00.000Z', version: 4 } });
    expect(offerStore.pushes).toBe(2);
  });
});

describe('offer lapse line', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const inDays = (days: number) => new Date(now + days * 86_400_000).toISOString();

  it("says when the current wait lapses, in the viewer's language, and nothing when it never does", async () => {
    const { rerender } = renderUi(<OfferLapse status={5} lapsesAt={inDays(13.6)} now={now} />);
    expect(screen.getByTestId('offer-lapse')).toHaveTextContent('Expires in 13 days');
    rerender(
      <MantineProvider env="test">
        <OfferLapse status={130} lapsesAt={inDays(1.2)} now={now} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('offer-lapse')).toHaveTextContent('Accepted automatically in 1 day');
    rerender(
      <MantineProvider env="test">
        <OfferLapse status={10} lapsesAt={inDays(0.5)} now={now} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('offer-lapse')).toHaveTextContent('Expires within a day');
    await act(() => i18n.changeLanguage('pl'));
    try {
      rerender(
        <MantineProvider env="test">
          <OfferLapse status={10} lapsesAt={inDays(5.5)} now={now} />
        </MantineProvider>,
      );
      expect(screen.getByTestId('offer-lapse')).toHaveTextContent('Wygasa za 5 dni');
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
    rerender(
      <MantineProvider env="test">
        <OfferLapse status={160} lapsesAt={null} now={now} />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('offer-lapse')).toBeNull();
  });
});

describe('offer rows', () => {
  const user = (code: string, name: string) => ({ code, name, surname: 'Nowak', avatar: null, type: 1, country: null, lang: 'eng', timezone: null });

  it('name the other party, so two offers on one job differ: the customer sees each provider, the provider the customer', async () => {
    answers['GET /api/user/U_p'] = () => [200, user('U_p', 'Piotr')];
    answers['GET /api/user/U_q'] = () => [200, user('U_q', 'Quinn')];
    answers['GET /api/user/U_c'] = () => [200, user('U_c', 'Celina')];
    renderUi(
      <>
        <OfferRow offer={{ ...OFFER, code: 'O_1', status: 5 }} me="U_c" />
        <OfferRow offer={{ ...OFFER, code: 'O_2', status: 5, providerCode: 'U_q' }} me="U_c" />
        <OfferRow offer={{ ...OFFER, code: 'O_3', status: 5 }} me="U_p" />
      </>,
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('offer-row-party').map((p) => p.textContent)).toEqual([
        expect.stringContaining('Provider: Piotr Nowak'),
        expect.stringContaining('Provider: Quinn Nowak'),
        expect.stringContaining('Customer: Celina Nowak'),
      ]),
    );
    // The avatar (initials without a picture) comes first.
    expect(screen.getAllByTestId('offer-row-party')[0].textContent).toMatch(/^PN/);
  });
});
