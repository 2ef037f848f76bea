import { act, screen, waitFor, within } from '@testing-library/react';
import type { ChatGroup } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { JobOffer } from '@/api/offer.api';
import { applyOfferStatus, resetOffers } from '@/features/offers/offer.store';
import { RoomsPage } from '@/features/moderation/RoomsPage';
import { sessionStore } from '@/features/session/session.store';
import { CONNECT_GRACE_MS, RECOVERED_SHOWN_MS, bannerState } from '@/realtime/ConnectionBanner';
import { applyStatus, resetPresence, setPresenceSocket } from '@/realtime/presence.store';
import { ADA, BOB, chatGroup, CY } from '../../../../jest/chat-fixtures';
import { renderRoutes } from '../../../../jest/render';
import type { ListedMessage } from '../chat-logic';
import { resetChat, upsertGroup } from '../chat.store';
import { ConversationHeader } from '../conversation/ConversationHeader';
import { ChatInfoBar } from './ChatInfoBar';
import { ChatSidebar, directPartner, listedGroups } from './ChatSidebar';
import { MessageItem } from './MessageItem';
import { systemMessageBody } from './SystemMessageCard';

const group = (code: string, people = [ADA, BOB], extra: Partial<ChatGroup> = {}) => chatGroup(code, extra, people);

const OFFER: JobOffer = {
  code: 'O_one',
  status: 160,
  deadline: null,
  price: { amount: '12.50', currency: 'USD' },
  localPrice: null,
  jobCode: 'J_one',
  groupCode: 'G_offer',
  providerCode: BOB.code,
  customerCode: ADA.code,
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 3,
  lapsesAt: null,
  job: { code: 'J_one', title: 'Paint the fence', description: 'A long enough description', lang: 'eng', deadline: null },
};

type Handler = () => [number, unknown];
let routes: Record<string, Handler> = {};
const fetchMock = jest.fn(async (url: string, init: { method: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const [status, answer] = routes[key]?.() ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

beforeEach(() => {
  resetChat();
  resetOffers();
  resetPresence();
  setPresenceSocket(() => null);
  routes = { 'POST /api/user/statuses': () => [200, []], 'GET /api/message/groups': () => [200, { groups: [], page: 1, pageSize: 50, hasMore: false }] };
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('information bar', () => {
  it('shows a job-offer chat its offer with the status colour and a View button to the offer', async () => {
    routes['GET /api/jobs/offers/O_one'] = () => [200, OFFER];
    renderRoutes([{ path: '/messages/:groupId', element: <ChatInfoBar group={{ type: 4, targetId: 'O_one' }} /> }], '/messages/G_offer');
    const status = await screen.findByTestId('chat-info-status');
    expect(status).toHaveTextContent('Payment pending');
    expect(status).toHaveAttribute('data-status', '160');
    expect(screen.getByTestId('chat-info-bar')).toHaveTextContent('Offer: Paint the fence');
    expect(screen.getByTestId('chat-info-price')).toHaveTextContent('$12.50');
    expect(screen.getByTestId('chat-info-view')).toHaveAttribute('href', '/jobs/J_one/offers/O_one');

    // A revision's push carries the new terms: the price changes without a reload.
    act(() =>
      applyOfferStatus({
        jobCode: 'J_one',
        offerCode: 'O_one',
        status: 160,
        previousStatus: 160,
        actorCode: BOB.code,
        at: new Date().toISOString(),
        price: { amount: '2400.00', currency: 'USD' },
        localPrice: null,
        deadline: null,
        version: 98,
      }),
    );
    await waitFor(() => expect(screen.getByTestId('chat-info-price')).toHaveTextContent('$2,400.00'));
    // An older push (lower version) never undoes it.
    act(() =>
      applyOfferStatus({
        jobCode: 'J_one',
        offerCode: 'O_one',
        status: 160,
        previousStatus: 160,
        actorCode: BOB.code,
        at: new Date().toISOString(),
        price: { amount: '1.00', currency: 'USD' },
        version: 97,
      }),
    );
    expect(screen.getByTestId('chat-info-price')).toHaveTextContent('$2,400.00');

    // offer:status moves the badge on.
    act(() => applyOfferStatus({ jobCode: 'J_one', offerCode: 'O_one', status: 200, previousStatus: 160, actorCode: ADA.code, at: new Date().toISOString() }));
    await waitFor(() => expect(screen.getByTestId('chat-info-status')).toHaveTextContent('Closed'));
  });

  it('says the offer was not found on a 404, without a View button', async () => {
    renderRoutes([{ path: '/messages/:groupId', element: <ChatInfoBar group={{ type: 4, targetId: 'O_gone' }} /> }], '/messages/G_offer');
    expect(await screen.findByTestId('chat-info-missing')).toHaveTextContent('Job offer not found');
    expect(screen.queryByTestId('chat-info-view')).toBeNull();

    // The offer appears later (the marketplace created it): its first push brings it in.
    routes['GET /api/jobs/offers/O_gone'] = () => [200, { ...OFFER, code: 'O_gone', status: 5 }];
    act(() => applyOfferStatus({ jobCode: 'J_one', offerCode: 'O_gone', status: 5, previousStatus: 1, actorCode: BOB.code, at: new Date().toISOString() }));
    await waitFor(() => expect(screen.getByTestId('chat-info-status')).toHaveTextContent('Proposal'));
    expect(screen.getByTestId('chat-info-view')).toHaveAttribute('href', '/jobs/J_one/offers/O_gone');
  });

  it('links a job FAQ chat to its job and shows nothing for other chats', () => {
    const { unmount } = renderRoutes([{ path: '/m', element: <ChatInfoBar group={{ type: 2, targetId: 'J_two' }} /> }], '/m');
    expect(screen.getByTestId('chat-info-view')).toHaveAttribute('href', '/jobs/J_two');
    expect(screen.getByRole('region', { name: 'About the job' })).toBeInTheDocument();
    unmount();
    renderRoutes([{ path: '/m', element: <ChatInfoBar group={{ type: 1, targetId: null }} /> }], '/m');
    expect(screen.queryByTestId('chat-info-bar')).toBeNull();
  });
});

describe('system messages', () => {
  const system = (extra: Partial<ListedMessage>): ListedMessage => ({
    code: 'M9',
    groupCode: 'G_offer',
    seq: 9,
    type: 2,
    message: '',
    language: null,
    translation: null,
    userCode: null,
    createdAt: new Date(2026, 0, 1, 12).toISOString(),
    files: [],
    clientKey: null,
    deleted: false,
    hasPrevious: false,
    hasNext: false,
    state: 'sent',
    ...extra,
  });
  const item = (m: ListedMessage) => (
    <MessageItem
      message={m}
      mine={false}
      authorName=""
      authorSurname=""
      avatarUrl={null}
      onRetry={jest.fn()}
      canDelete={false}
      showingOriginal={false}
      onDelete={jest.fn()}
      onToggleOriginal={jest.fn()}
    />
  );

  it('renders offer messages as cards with a link to the offer once it is known', async () => {
    upsertGroup(group('G_offer', [ADA, BOB], { type: 4, targetId: 'O_one' }));
    routes['GET /api/jobs/offers/O_one'] = () => [200, OFFER];
    renderRoutes(
      [
        {
          path: '/messages/:groupId',
          element: (
            <>
              {item(system({ type: 2, message: 'Bob asks for the final offer' }))}
              <ChatInfoBar group={{ type: 4, targetId: 'O_one' }} />
            </>
          ),
        },
      ],
      '/messages/G_offer',
    );
    const card = screen.getByTestId('chat-system-message');
    expect(card).toHaveAttribute('data-type', '2');
    expect(within(card).getByTestId('chat-system-title')).toHaveTextContent('Final offer requested');
    expect(within(card).getByTestId('chat-system-text')).toHaveTextContent('Bob asks for the final offer');
    expect(screen.queryByTestId('chat-message')).toBeNull();
    await waitFor(() => expect(within(card).getByTestId('chat-system-offer-view')).toHaveAttribute('href', '/jobs/J_one/offers/O_one'));
  });

  it('titles approvals and other system messages, translating known keys and hiding unknown ones', () => {
    renderRoutes(
      [
        {
          path: '/m',
          element: (
            <>
              {item(system({ code: 'A', type: 3, message: 'SOME.UNKNOWN_KEY' }))}
              {item(system({ code: 'B', type: 1, message: 'OFFER.STATUS.AGREED' }))}
            </>
          ),
        },
      ],
      '/m',
    );
    const [approved, other] = screen.getAllByTestId('chat-system-message');
    expect(within(approved).getByTestId('chat-system-title')).toHaveTextContent('Job offer approved');
    expect(within(approved).queryByTestId('chat-system-text')).toBeNull();
    expect(within(other).getByTestId('chat-system-title')).toHaveTextContent('Update');
    expect(within(other).getByTestId('chat-system-text')).toHaveTextContent('Agreed');
  });

  it("shows the marketplace's offer notes (marked offerNote by the server) as translated cards", () => {
    renderRoutes(
      [
        {
          path: '/m',
          element: (
            <>
              {item(system({ code: 'P', type: 1, userCode: BOB.code, message: 'JOB_OFFER.MESSAGE.PROPOSAL', offerNote: true }))}
              {item(system({ code: 'F', type: 2, userCode: BOB.code, message: 'JOB_OFFER.MESSAGE.FINAL_OFFER', offerNote: true }))}
              {item(system({ code: 'T', type: 1, userCode: BOB.code, message: 'JOB_OFFER.MESSAGE.PAID' }))}
            </>
          ),
        },
      ],
      '/m',
    );
    const [proposal, final] = screen.getAllByTestId('chat-system-message');
    // Titled by their own text (not "Final offer requested" over "The provider made a final offer"), said once.
    expect(within(proposal).getByTestId('chat-system-title')).toHaveTextContent('The provider sent a price and a deadline');
    expect(within(final).getByTestId('chat-system-title')).toHaveTextContent('The provider made a final offer');
    expect(within(final).queryByTestId('chat-system-text')).toBeNull();
    expect(`${proposal.textContent}${final.textContent}`).not.toMatch(/JOB_OFFER\./);
    // A note's key the server did not mark (someone typed it) is an ordinary message: it stays as written.
    expect(screen.getByTestId('chat-message-text')).toHaveTextContent('JOB_OFFER.MESSAGE.PAID');
    expect(screen.queryByText('The customer paid')).toBeNull();
  });

  it("shows a note's own event: the status its move led to (not the offer's now) and the new price and deadline", async () => {
    upsertGroup(group('G_offer', [ADA, BOB], { type: 4, targetId: 'O_one' }));
    // The offer is at Payment pending now; the cards are about earlier moves.
    routes['GET /api/jobs/offers/O_one'] = () => [200, OFFER];
    const terms = { price: { amount: '150.00', currency: 'USD' }, localPrice: { amount: '600.00', currency: 'PLN' }, deadline: '2026-12-02T13:30:00.000Z' };
    renderRoutes(
      [
        {
          path: '/messages/:groupId',
          element: (
            <>
              {item(
                system({ code: 'R', type: 1, userCode: BOB.code, message: 'JOB_OFFER.MESSAGE.REVISED', offerNote: true, offerNoteData: { status: 5, terms } }),
              )}
              {item(system({ code: 'A', type: 3, userCode: ADA.code, message: 'JOB_OFFER.MESSAGE.APPROVED', offerNote: true, offerNoteData: { status: 50 } }))}
              {item(system({ code: 'O', type: 1, userCode: BOB.code, message: 'JOB_OFFER.MESSAGE.AGREED', offerNote: true }))}
            </>
          ),
        },
      ],
      '/messages/G_offer',
    );
    const [revised, approved, older] = screen.getAllByTestId('chat-system-message');
    expect(within(revised).getByTestId('chat-system-title')).toHaveTextContent('The provider changed the price or the deadline');
    expect(within(revised).getByTestId('chat-system-status')).toHaveTextContent('Proposal');
    expect(within(revised).getByTestId('chat-system-terms').textContent?.replace(/\s/g, ' ')).toBe(
      'Price: $150.00 (PLN 600.00) · Deadline: Dec 2, 2026, 1:30 PM',
    );
    expect(within(approved).getByTestId('chat-system-status')).toHaveAttribute('data-status', '50');
    expect(within(approved).queryByTestId('chat-system-terms')).toBeNull();
    // A note posted before notes carried their status: the status its move leads to in the table.
    expect(within(older).getByTestId('chat-system-status')).toHaveAttribute('data-status', '100');
    // The link to the offer stays; the offer's current status and price are not shown on the cards.
    await waitFor(() => expect(within(revised).getByTestId('chat-system-offer-view')).toHaveAttribute('href', '/jobs/J_one/offers/O_one'));
    expect(screen.queryByTestId('chat-system-offer-status')).toBeNull();
    expect(screen.queryByText('Payment pending')).toBeNull();
  });

  it('keeps plain text as it is', () => {
    const t = ((k: string) => `t:${k}`) as never;
    expect(systemMessageBody('  Offer sent  ', t, () => true)).toBe('Offer sent');
    expect(systemMessageBody('A.B', t, () => true)).toBe('t:A.B');
    expect(systemMessageBody('A.B', t, () => false)).toBeNull();
    expect(systemMessageBody('', t, () => true)).toBeNull();
  });
});

describe('chat list', () => {
  it("shows the other person's presence in direct chats only, and the moderated flag", async () => {
    const direct = group('G_direct', [ADA, BOB], { lastMessageAt: '2026-01-01T10:00:00.000Z', watched: true });
    const trio = group('G_trio', [ADA, BOB, CY]);
    routes['GET /api/message/groups'] = () => [200, { groups: [direct, trio], page: 1, pageSize: 50, hasMore: false }];
    routes['POST /api/user/statuses'] = () => [200, [{ userCode: BOB.code, online: true, lastActiveAt: null, away: 0, idleMs: 0 }]];
    renderRoutes([{ path: '/messages', element: <ChatSidebar activeCode={null} /> }], '/messages');
    const item = await screen.findByTestId('chat-list-item-G_direct');
    await waitFor(() => expect(within(item).getByTestId('chat-list-presence')).toHaveAttribute('data-presence', 'available'));
    expect(within(item).getByLabelText('Available')).toBeInTheDocument();
    expect(within(item).getByTestId('chat-list-moderated')).toBeInTheDocument();
    expect(within(screen.getByTestId('chat-list-item-G_trio')).queryByTestId('chat-list-presence')).toBeNull();

    act(() => applyStatus({ userCode: BOB.code, online: false, lastActiveAt: null, away: 90, idleMs: 5400000 }));
    await waitFor(() => expect(within(item).getByTestId('chat-list-presence')).toHaveAttribute('data-presence', 'unavailable'));
  });

  it('shows offer notes translated, files-only messages as a file count and translations in the last-message line', async () => {
    const last = (code: string, extra: Partial<ListedMessage>) => ({
      code: `M_${code}`,
      groupCode: code,
      seq: 1,
      type: 1,
      message: '',
      language: null,
      translation: null,
      userCode: BOB.code,
      createdAt: '2026-01-01T10:00:00.000Z',
      files: [],
      clientKey: null,
      deleted: false,
      ...extra,
    });
    const note = group('G_note', [ADA, BOB], {
      type: 4,
      targetId: 'O_one',
      lastMessageAt: '2026-01-01T10:00:00.000Z',
      lastMessage: last('G_note', { message: 'JOB_OFFER.MESSAGE.PAID', offerNote: true }),
    });
    const files = group('G_files', [ADA, BOB], { lastMessageAt: '2026-01-01T09:00:00.000Z', lastMessage: last('G_files', { files: ['F_1', 'F_2'] }) });
    const one = group('G_one_file', [ADA, BOB], { lastMessageAt: '2026-01-01T08:00:00.000Z', lastMessage: last('G_one_file', { files: ['F_1'] }) });
    const both = group('G_both', [ADA, BOB], {
      lastMessageAt: '2026-01-01T07:00:00.000Z',
      lastMessage: last('G_both', { message: 'see attached', files: ['F_1'] }),
    });
    const translated = group('G_tr', [ADA, BOB], {
      lastMessageAt: '2026-01-01T06:00:00.000Z',
      lastMessage: last('G_tr', { message: 'Cześć', translation: 'Hello' }),
    });
    routes['GET /api/message/groups'] = () => [200, { groups: [note, files, one, both, translated], page: 1, pageSize: 50, hasMore: false }];
    renderRoutes([{ path: '/messages', element: <ChatSidebar activeCode={null} /> }], '/messages');
    const line = async (code: string) => within(await screen.findByTestId(`chat-list-item-${code}`)).getByTestId('chat-list-last');
    expect(await line('G_note')).toHaveTextContent('The customer paid');
    // A paperclip icon, not an emoji (which many systems draw as an empty box).
    expect(await line('G_files')).toHaveTextContent(/^2 files$/);
    expect(within(await line('G_files')).getByTestId('chat-list-files-icon')).toBeInTheDocument();
    expect(await line('G_one_file')).toHaveTextContent(/^1 file$/);
    expect(await line('G_both')).toHaveTextContent('see attached');
    expect(within(await line('G_both')).queryByTestId('chat-list-files-icon')).toBeNull();
    // As in the chat: the translation when there is one.
    expect(await line('G_tr')).toHaveTextContent(/^Hello$/);
  });

  it('renders nothing when closed and an overlay with a close button when visible', () => {
    const onClose = jest.fn();
    const { unmount } = renderRoutes([{ path: '/messages', element: <ChatSidebar activeCode={null} state="closed" /> }], '/messages');
    expect(screen.queryByTestId('chat-sidebar')).toBeNull();
    unmount();
    renderRoutes([{ path: '/messages', element: <ChatSidebar activeCode={null} state="visible" onClose={onClose} /> }], '/messages');
    expect(screen.getByTestId('chat-sidebar')).toHaveAttribute('data-state', 'visible');
    screen.getByTestId('chat-sidebar-close').click();
    expect(onClose).toHaveBeenCalled();
  });

  it("leaves a moderator's watched rooms out, and finds the partner of direct chats only", () => {
    const watchedRoom = group('G_room', [BOB, CY]);
    const partial = group('G_big', [BOB, CY], { participantCount: 30 });
    expect(listedGroups([watchedRoom, partial, group('G_mine')], ADA.code).map((g) => g.code)).toEqual(['G_big', 'G_mine']);
    expect(directPartner(group('G_d'), ADA.code)).toBe(BOB.code);
    expect(directPartner(group('G_t', [ADA, BOB, CY]), ADA.code)).toBeNull();
    expect(directPartner(group('G_j', [ADA, BOB], { type: 4 }), ADA.code)).toBeNull();
  });
});

describe('moderation', () => {
  it('shows the moderated badge beside the chat name, not among the icons, only while the chat is watched', () => {
    const { unmount } = renderRoutes(
      [{ path: '/m', element: <ConversationHeader group={group('G_m', [ADA, BOB, CY], { watched: true })} me={ADA.code} /> }],
      '/m',
    );
    // The badge is drawn outside the app's tree (moderation-indicator.ts); its slot sits beside the name.
    expect(screen.getByRole('status', { name: 'Moderated' })).toHaveAttribute('title', 'A moderator is watching this chat live');
    expect(screen.getByTestId('chat-header-title')).toContainElement(screen.getByTestId('chat-moderated-slot'));
    expect(screen.getByTestId('chat-header-icons')).not.toContainElement(screen.getByTestId('chat-moderated-slot'));
    expect(screen.getByTestId('chat-sidebar-toggle')).toHaveAttribute('aria-label', 'Hide chat list');
    unmount();
    expect(screen.queryByTestId('chat-moderated-badge')).toBeNull();
    renderRoutes([{ path: '/m', element: <ConversationHeader group={group('G_m', [ADA, BOB, CY], { watched: false })} me={ADA.code} /> }], '/m');
    expect(screen.queryByTestId('chat-moderated-badge')).toBeNull();
    expect(screen.queryByTestId('chat-moderated-slot')).toBeNull();
  });

  it('lists the busiest rooms with a Watch button each', async () => {
    const room = (code: string, name: string | null) => ({
      code,
      name,
      type: 1,
      messages: 42,
      lastMessageAt: '2026-01-01T10:00:00.000Z',
      participants: 5,
      connectedParticipants: 2,
      watched: true,
    });
    routes['GET /api/admin/rooms'] = () => [200, [room('G_busy', 'Sales'), room('G_quiet', null), room('G_gone', null)]];
    // A room without a name is named by the group name rule: the moderator is in none of them.
    routes['GET /api/message/groups/G_quiet'] = () => [200, group('G_quiet', [BOB, CY])];
    renderRoutes([{ path: '/admin/rooms', element: <RoomsPage /> }], '/admin/rooms');
    const row = await screen.findByTestId('moderation-room-G_busy');
    expect(row).toHaveTextContent('Sales');
    expect(row).toHaveTextContent('42');
    expect(row).toHaveTextContent('2 of 5 online');
    expect(row).toHaveTextContent('Moderated');
    expect(within(row).getByRole('link', { name: 'Watch Sales' })).toHaveAttribute('href', '/admin/rooms/G_busy');
    const unnamed = screen.getByTestId('moderation-room-G_quiet');
    await waitFor(() => expect(within(unnamed).getByTestId('moderation-room-name')).toHaveTextContent('Bob Builder, Cy Young'));
    expect(within(unnamed).getByRole('link', { name: 'Watch Bob Builder, Cy Young' })).toBeInTheDocument();
    // A group that cannot be read keeps its code.
    expect(within(screen.getByTestId('moderation-room-G_gone')).getByTestId('moderation-room-name')).toHaveTextContent('G_gone');
  });

  it('says so when no room had messages', async () => {
    routes['GET /api/admin/rooms'] = () => [200, []];
    renderRoutes([{ path: '/admin/rooms', element: <RoomsPage /> }], '/admin/rooms');
    expect(await screen.findByTestId('moderation-rooms-empty')).toBeInTheDocument();
  });
});

describe('connection banner', () => {
  it('shows polling while the socket is down and "live again" briefly after it is back', () => {
    expect(bannerState('connecting', false, null, 0)).toBe('hidden');
    expect(bannerState('disconnected', false, null, 0)).toBe('polling');
    expect(bannerState('connected', true, 1_000, 1_000 + RECOVERED_SHOWN_MS - 1)).toBe('recovered');
    expect(bannerState('connected', true, 1_000, 1_000 + RECOVERED_SHOWN_MS)).toBe('hidden');
    expect(bannerState('connected', false, null, 0)).toBe('hidden');
  });

  it('shows the polling banner when the socket never connects at all, after the grace time', () => {
    expect(bannerState('connecting', false, null, 60_000, 1_000)).toBe('polling');
    expect(bannerState('connecting', false, null, 1_000 + CONNECT_GRACE_MS - 1, 1_000)).toBe('hidden');
    expect(bannerState('connecting', false, null, 1_000 + CONNECT_GRACE_MS, 1_000)).toBe('polling');
  });
});
