import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { ReportQueueItem } from '@/api/reports.api';
import { chatStore, resetChat } from '@/features/chat/chat.store';
import { MessageList } from '@/features/chat/components/MessageList';
import { sessionStore } from '@/features/session/session.store';
import { i18n } from '@/i18n/i18n';
import { ADA, BOB, chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { renderRoutes, renderWithMantine } from '../../../jest/render';
import { blocksStore, hiddenAsBlocked } from './blocks.store';
import { ReportDialog } from './ReportDialog';
import { markTold, markWarningTold, untoldOutcomes, untoldWarnings } from './report-outcomes';
import { ReportsQueuePage } from './ReportsQueuePage';

type Route = (body: Record<string, unknown> | undefined) => [number, unknown];
let routes: Record<string, Route> = {};
const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const body = init.body ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
  calls.push({ key, body });
  const [status, answer] = routes[key]?.(body) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => (status === 204 ? '' : JSON.stringify(answer)) };
});

beforeEach(() => {
  resetChat();
  calls.length = 0;
  routes = {};
  blocksStore.blocked = {};
  sessionStore.token = 'T';
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

function renderChat(type = 1) {
  chatStore.groups.G_one = chatGroup('G_one', { type, lastSeq: 2 }, [ADA, BOB]);
  const messages = [storedMessage(1, { userCode: BOB.code, message: 'rude words' }), storedMessage(2, { userCode: ADA.code, message: 'stop' })].map((m) => ({
    ...m,
    hasPrevious: false,
    hasNext: false,
    state: 'sent' as const,
  }));
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <MessageList groupCode="G_one" messages={messages} me={ADA.code} role={0} mayLoadOlder={false} empty="" stickRef={{ current: true }} />
            <ReportDialog />
          </>
        ),
      },
    ],
    '/',
  );
}

const menuOf = (text: string) => {
  const row = screen.getByText(text).closest('[data-testid="chat-message"]') as HTMLElement;
  fireEvent.click(row.querySelector('[data-testid="chat-message-menu"]') as HTMLElement);
};

describe('reporting and blocking from a message', () => {
  it('reports a message with a reason and a note; the menu of my own message offers neither', async () => {
    routes['POST /api/reports'] = () => [201, { code: 'R1' }];
    renderChat();
    menuOf('stop');
    expect(screen.queryByTestId('report-message')).toBeNull();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    menuOf('rude words');
    fireEvent.click(await screen.findByTestId('report-message'));
    expect(await screen.findByText('Report a message')).toBeInTheDocument();
    expect(screen.getByTestId('report-submit')).toBeDisabled();
    fireEvent.click(screen.getByLabelText('Harassment or abuse'));
    fireEvent.change(screen.getByTestId('report-note'), { target: { value: 'keeps insulting me' } });
    fireEvent.click(screen.getByTestId('report-submit'));
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('POST /api/reports'));
    expect(calls.find((c) => c.key === 'POST /api/reports')?.body).toEqual({
      groupCode: 'G_one',
      messageCode: 'M1',
      reason: 'harassment',
      note: 'keeps insulting me',
    });
    await waitFor(() => expect(screen.queryByTestId('report-dialog')).toBeNull());
  });

  it('blocks the author: their messages collapse behind "show"', async () => {
    routes[`PUT /api/blocks/${BOB.code}`] = () => [204, null];
    renderChat();
    menuOf('rude words');
    fireEvent.click(await screen.findByTestId('block-person'));
    await waitFor(() => expect(screen.getByTestId('blocked-message')).toHaveTextContent('Message from a blocked user ·show'));
    expect(screen.queryByText('rude words')).toBeNull();
    expect(screen.getByText('stop')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('blocked-message-show'));
    expect(screen.getByText('rude words')).toBeInTheDocument();
  });

  it('does not collapse a blocked party in an offer chat (the deal goes on)', () => {
    blocksStore.blocked[BOB.code] = true;
    renderChat(4);
    expect(screen.getByText('rude words')).toBeInTheDocument();
    expect(screen.queryByTestId('blocked-message')).toBeNull();
  });
});

describe('outcomes decided while the reporter was away', () => {
  it('are told once per device, live ones included', async () => {
    localStorage.clear();
    const mine = (code: string, status: string, action: string | null) => ({ code, status, action });
    routes['GET /api/reports/mine'] = () => [200, [mine('R3', 'open', null), mine('R2', 'resolved', 'warn'), mine('R1', 'resolved', 'dismiss')]];
    markTold('R1');
    expect(await untoldOutcomes()).toEqual([{ code: 'R2', action: 'warn' }]);
    expect(await untoldOutcomes()).toEqual([]);
  });
});

describe('warnings given while the user was away', () => {
  it('are told once per device, live ones included, apart from report outcomes', async () => {
    localStorage.clear();
    const warning = (code: string) => ({ code, reason: 'spam', at: '2026-11-28T06:00:00.000Z' });
    routes['GET /api/reports/warnings/mine'] = () => [200, [warning('W3'), warning('W2'), warning('W1')]];
    markWarningTold('W1');
    markTold('W2');
    expect(await untoldWarnings()).toEqual(['W3', 'W2']);
    expect(await untoldWarnings()).toEqual([]);
    routes['GET /api/reports/warnings/mine'] = () => [200, [warning('W4'), warning('W3')]];
    expect(await untoldWarnings()).toEqual(['W4']);
  });
});

describe('hiddenAsBlocked', () => {
  it('hides a blocked author outside offer chats only', () => {
    const blocked = { [BOB.code]: true as const };
    expect(hiddenAsBlocked(blocked, BOB.code, 1)).toBe(true);
    expect(hiddenAsBlocked(blocked, BOB.code, 3)).toBe(true);
    expect(hiddenAsBlocked(blocked, BOB.code, 4)).toBe(false);
    expect(hiddenAsBlocked(blocked, ADA.code, 1)).toBe(false);
    expect(hiddenAsBlocked(blocked, null, 1)).toBe(false);
  });
});

describe('the moderation queue', () => {
  const item = (extra: Partial<ReportQueueItem> = {}): ReportQueueItem => ({
    code: 'R1',
    reason: 'harassment',
    note: 'keeps insulting me',
    reported: { code: BOB.code, name: 'Bob', surname: 'Builder' },
    reporter: { code: ADA.code, name: 'Ada', surname: 'Lovelace' },
    groupCode: 'G_one',
    messageCode: 'M2',
    status: 'open',
    action: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    resolvedAt: null,
    resolvedBy: null,
    messageDeletedNow: false,
    reportedSuspendedUntil: null,
    context: [
      {
        code: 'M1',
        seq: 1,
        userCode: ADA.code,
        userName: 'Ada Lovelace',
        message: 'hello',
        createdAt: '2026-11-28T09:59:00.000Z',
        deleted: false,
        offerNote: false,
      },
      {
        code: 'M2',
        seq: 2,
        userCode: BOB.code,
        userName: 'Bob Builder',
        message: 'you idiot',
        createdAt: '2026-11-28T10:00:00.000Z',
        deleted: false,
        offerNote: false,
      },
    ],
    ...extra,
  });

  it('shows the report with its context and resolves it', async () => {
    routes['GET /api/admin/reports'] = () => [200, { reports: [item()], hasMore: false }];
    routes['POST /api/admin/reports/R1/resolve'] = () => [
      201,
      item({ status: 'resolved', action: 'delete', resolvedBy: { code: 'U_mod', name: 'Mo', surname: 'D' }, messageDeletedNow: true }),
    ];
    renderWithMantine(<ReportsQueuePage />);
    const card = await screen.findByTestId('report-card');
    expect(card).toHaveTextContent('Harassment or abuse');
    expect(card).toHaveTextContent('Reported by Ada Lovelace · “keeps insulting me”');
    expect(screen.getByText('you idiot').closest('[data-reported]')).not.toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('report-action-delete')));
    expect(calls.find((c) => c.key === 'POST /api/admin/reports/R1/resolve')?.body).toEqual({ action: 'delete' });
    expect(await screen.findByTestId('report-outcome')).toHaveTextContent('Delete the message · Mo D');
  });

  it('shows the other reports of the message closed with the one resolved', async () => {
    routes['GET /api/admin/reports'] = () => [
      200,
      { reports: [item(), item({ code: 'R2', reporter: { code: 'U_cy', name: 'Cy', surname: 'P' } })], hasMore: false },
    ];
    routes['POST /api/admin/reports/R1/resolve'] = () => [
      201,
      item({ status: 'resolved', action: 'warn', resolvedBy: { code: 'U_mod', name: 'Mo', surname: 'D' } }),
    ];
    renderWithMantine(<ReportsQueuePage />);
    await screen.findAllByTestId('report-card');
    await act(async () => fireEvent.click(screen.getAllByTestId('report-action-warn')[0]));
    await waitFor(() => expect(screen.getAllByTestId('report-outcome')).toHaveLength(2));
    expect(screen.queryByTestId('report-action-dismiss')).toBeNull();
  });

  it('lifts a shown suspension early, in English and Polish', async () => {
    const suspended = item({ status: 'resolved', action: 'suspend', messageCode: null, context: [], reportedSuspendedUntil: '2026-12-05T10:00:00.000Z' });
    routes['GET /api/admin/reports'] = () => [200, { reports: [suspended], hasMore: false }];
    routes[`POST /api/admin/reports/users/${BOB.code}/unsuspend`] = () => [201, { code: BOB.code, name: 'Bob', surname: 'Builder', suspendedUntil: null }];
    await act(() => i18n.changeLanguage('pl'));
    try {
      const { unmount } = renderWithMantine(<ReportsQueuePage />);
      expect(await screen.findByTestId('report-suspension')).toHaveTextContent('Konto zawieszone do');
      expect(screen.getByTestId('report-unsuspend')).toHaveTextContent('Znieś zawieszenie');
      unmount();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
    renderWithMantine(<ReportsQueuePage />);
    expect(await screen.findByTestId('report-suspension')).toHaveTextContent('Suspended until');
    await act(async () => fireEvent.click(screen.getByTestId('report-unsuspend')));
    expect(calls.some((c) => c.key === `POST /api/admin/reports/users/${BOB.code}/unsuspend`)).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('report-suspension')).toBeNull());
  });

  it('offers no delete for a report of a person', async () => {
    routes['GET /api/admin/reports'] = () => [200, { reports: [item({ messageCode: null, context: [] })], hasMore: false }];
    renderWithMantine(<ReportsQueuePage />);
    await screen.findByTestId('report-card');
    expect(screen.queryByTestId('report-action-delete')).toBeNull();
    expect(screen.getByTestId('report-action-suspend')).toBeInTheDocument();
  });
});
