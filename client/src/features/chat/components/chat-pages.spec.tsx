import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ChatGroup } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import { userApi } from '@/api/user.api';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { ADA, BOB, chatGroup, CY } from '../../../../jest/chat-fixtures';
import { current, renderRoutes } from '../../../../jest/render';
import { refreshGroup } from '../chat-groups.actions';
import { chatStore, messagesOf, resetChat } from '../chat.store';
import { GroupSettings } from './GroupSettings';
import { NewChat } from './NewChat';
import { Participants } from './Participants';

const group = (code: string, people = [ADA, BOB], extra: Partial<ChatGroup> = {}) => chatGroup(code, extra, people);

type Handler = (body: unknown) => [number, unknown];
let routes: Record<string, Handler> = {};
const calls: { key: string; body: unknown; url: string }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const body = init.body ? JSON.parse(init.body) : undefined;
  calls.push({ key, body, url });
  const handler = routes[key];
  const [status, answer] = handler ? handler(body) : [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});
const callsTo = (key: string) => calls.filter((c) => c.key === key);

beforeEach(() => {
  resetChat();
  routes = {};
  calls.length = 0;
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => jest.restoreAllMocks());

const chatRoute = { path: '/messages/:groupId', element: <p>chat page</p> };

async function pickInDialog(query: string, userCode: string) {
  fireEvent.change(screen.getByTestId('user-search-query'), { target: { value: query } });
  await waitFor(() => expect(screen.getByTestId(`user-search-result-${userCode}`)).toBeInTheDocument());
  fireEvent.click(screen.getByTestId(`user-search-result-${userCode}`));
  fireEvent.click(screen.getByTestId('user-search-confirm'));
}

describe('new chat', () => {
  it('starts the chat with the picked people and the first message, then opens it', async () => {
    jest.spyOn(userApi, 'search').mockResolvedValue([{ ...BOB, avatar: null }] as never);
    routes['PUT /api/message/groups'] = () => [
      200,
      {
        group: group('G_new'),
        message: {
          code: 'M1',
          groupCode: 'G_new',
          seq: 1,
          type: 1,
          message: 'hi',
          language: 'eng',
          translation: null,
          userCode: ADA.code,
          createdAt: new Date().toISOString(),
          files: [],
          clientKey: null,
          deleted: false,
        },
      },
    ];
    renderRoutes([{ path: '/messages/new/create', element: <NewChat /> }, chatRoute], '/messages/new/create');
    expect(screen.getByTestId('chat-new-start')).toBeDisabled();
    // The 'new' group state (spec section 4): no group id yet, so the field waits for a second participant.
    expect(screen.getByTestId('chat-new-message')).toBeDisabled();
    fireEvent.click(screen.getByTestId('chat-new-pick'));
    await pickInDialog('bob b', BOB.code);
    expect(screen.getByTestId(`chat-new-person-${BOB.code}`)).toHaveTextContent('Bob Builder');
    expect(screen.getByTestId('chat-new-message')).toBeEnabled();
    fireEvent.change(screen.getByTestId('chat-new-message'), { target: { value: '  hi  ' } });
    fireEvent.click(screen.getByTestId('chat-new-start'));

    await waitFor(() => expect(current.location?.pathname).toBe('/messages/G_new'));
    expect(callsTo('PUT /api/message/groups')[0].body).toEqual({ userList: [BOB.code], message: 'hi', lang: 'eng' });
    expect(chatStore.groups.G_new).toBeDefined();
    expect(messagesOf(chatStore.threads.G_new).map((m) => m.code)).toEqual(['M1']);
  });

  it('sends no message field when none was written, and lets picked people be removed', async () => {
    jest.spyOn(userApi, 'search').mockResolvedValue([BOB, CY] as never);
    routes['PUT /api/message/groups'] = () => [200, { group: group('G_reused', [ADA, CY]), message: null }];
    renderRoutes([{ path: '/messages/new/create', element: <NewChat /> }, chatRoute], '/messages/new/create');
    fireEvent.click(screen.getByTestId('chat-new-pick'));
    await pickInDialog('young', CY.code);
    fireEvent.click(screen.getByTestId('chat-new-pick'));
    await pickInDialog('build', BOB.code);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bob Builder' }));
    expect(screen.queryByTestId(`chat-new-person-${BOB.code}`)).toBeNull();
    fireEvent.click(screen.getByTestId('chat-new-start'));
    await waitFor(() => expect(current.location?.pathname).toBe('/messages/G_reused'));
    expect(callsTo('PUT /api/message/groups')[0].body).toEqual({ userList: [CY.code] });
  });

  it('stays on the form when the server refuses', async () => {
    jest.spyOn(userApi, 'search').mockResolvedValue([BOB] as never);
    routes['PUT /api/message/groups'] = () => [422, { code: 422, message: 'VALIDATION.FAILED' }];
    renderRoutes([{ path: '/messages/new/create', element: <NewChat /> }, chatRoute], '/messages/new/create');
    fireEvent.click(screen.getByTestId('chat-new-pick'));
    await pickInDialog('bob b', BOB.code);
    fireEvent.click(screen.getByTestId('chat-new-start'));
    await waitFor(() => expect(screen.getByTestId('chat-new-start')).not.toHaveAttribute('data-loading'));
    expect(current.location?.pathname).toBe('/messages/new/create');
    expect(chatStore.groups).toEqual({});
  });
});

describe('participants page', () => {
  it('lists everyone with presence from /api/user/statuses and adds people through the search dialog', async () => {
    jest.spyOn(userApi, 'search').mockResolvedValue([BOB, CY] as never);
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one')];
    routes['POST /api/user/statuses'] = (body) => {
      const ids = (body as { userIds: string[] }).userIds;
      return [
        200,
        ids.map((userCode) => ({
          userCode,
          online: userCode === ADA.code || userCode === CY.code,
          lastActiveAt: null,
          away: userCode === CY.code ? 30 : userCode === BOB.code ? null : 0,
        })),
      ];
    };
    routes['POST /api/message/group/G_one/participants'] = () => [200, group('G_one', [ADA, BOB, CY])];
    renderRoutes([{ path: '/messages/:groupId/participants', element: <Participants code="G_one" /> }], '/messages/G_one/participants');

    await waitFor(() => expect(screen.getByTestId('chat-participant-U_ada')).toHaveAttribute('data-presence', 'available'));
    expect(screen.getByTestId('chat-participant-U_bob')).toHaveAttribute('data-presence', 'unavailable');
    expect(callsTo('POST /api/user/statuses')[0].body).toEqual({ userIds: [ADA.code, BOB.code] });

    fireEvent.click(screen.getByTestId('chat-participants-add'));
    // People already in the chat are not offered.
    await pickInDialog('young', CY.code);
    expect(screen.queryByTestId(`user-search-result-${BOB.code}`)).toBeNull();
    await waitFor(() => expect(screen.getByTestId('chat-participant-U_cy')).toHaveAttribute('data-presence', 'away'));
    expect(callsTo('POST /api/message/group/G_one/participants')[0].body).toEqual({ participants: [CY.code] });
    expect(chatStore.groups.G_one.participantCount).toBe(3);
  });

  it("asks for the chat in the interface language, so an offer chat's job title is the reader's", async () => {
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one')];
    routes['POST /api/user/statuses'] = () => [200, []];
    preferencesStore.language = 'pol';
    try {
      await refreshGroup('G_one');
    } finally {
      preferencesStore.language = 'eng';
    }
    expect(callsTo('GET /api/message/groups/G_one')[0].url).toContain('lang=pol');
  });

  it('says so when the chat cannot be shown', async () => {
    renderRoutes([{ path: '/messages/:groupId/participants', element: <Participants code="G_gone" /> }], '/messages/G_gone/participants');
    expect(await screen.findByText('This chat cannot be shown')).toBeInTheDocument();
  });
});

describe('settings page', () => {
  it('renames the chat and sets its subtitle', async () => {
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one')];
    routes['PATCH /api/message/groups/G_one'] = (body) => [200, group('G_one', [ADA, BOB], body as Partial<ChatGroup>)];
    renderRoutes([{ path: '/messages/:groupId/settings', element: <GroupSettings code="G_one" /> }], '/messages/G_one/settings');
    const name = await screen.findByTestId('chat-settings-name');
    fireEvent.change(name, { target: { value: ' Team ' } });
    fireEvent.change(screen.getByTestId('chat-settings-subtitle'), { target: { value: 'Weekly sync' } });
    fireEvent.click(screen.getByTestId('chat-settings-save'));
    await waitFor(() => expect(chatStore.groups.G_one.name).toBe('Team'));
    expect(callsTo('PATCH /api/message/groups/G_one')[0].body).toEqual({ name: 'Team', subtitle: 'Weekly sync' });
    expect(chatStore.groups.G_one.subtitle).toBe('Weekly sync');
  });

  it('snoozes the chat for 8 hours, mutes it until turned back on, and turns it back on', async () => {
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one')];
    routes['PUT /api/message/groups/G_one/notifications'] = (body) => {
      const b = body as { muted: boolean; until?: string };
      return [200, { muted: b.muted, mutedUntil: b.until ?? null }];
    };
    renderRoutes([{ path: '/messages/:groupId/settings', element: <GroupSettings code="G_one" /> }], '/messages/G_one/settings');
    expect(await screen.findByTestId('chat-mute-off')).toBeChecked();

    const before = Date.now();
    fireEvent.click(screen.getByTestId('chat-mute-8h'));
    await waitFor(() => expect(chatStore.groups.G_one.muted).toBe(true));
    const snooze = callsTo('PUT /api/message/groups/G_one/notifications')[0].body as { muted: boolean; until: string };
    expect(snooze.muted).toBe(true);
    const length = Date.parse(snooze.until) - before;
    expect(length).toBeGreaterThanOrEqual(8 * 3600_000);
    expect(length).toBeLessThan(8 * 3600_000 + 60_000);
    expect(await screen.findByTestId('chat-mute-until')).toHaveTextContent('Snoozed until');

    fireEvent.click(screen.getByTestId('chat-mute-forever'));
    await waitFor(() => expect(screen.getByTestId('chat-mute-forever')).toBeChecked());
    expect(callsTo('PUT /api/message/groups/G_one/notifications')[1].body).toEqual({ muted: true });
    expect(chatStore.groups.G_one).toMatchObject({ muted: true, mutedUntil: null });

    fireEvent.click(screen.getByTestId('chat-mute-off'));
    await waitFor(() => expect(chatStore.groups.G_one.muted).toBe(false));
    expect(callsTo('PUT /api/message/groups/G_one/notifications')[2].body).toEqual({ muted: false });
  });

  it('keeps the state when the server refuses the change', async () => {
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one')];
    routes['PUT /api/message/groups/G_one/notifications'] = () => [
      422,
      { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['NOTIFICATIONS.SNOOZE_IN_PAST'] } },
    ];
    renderRoutes([{ path: '/messages/:groupId/settings', element: <GroupSettings code="G_one" /> }], '/messages/G_one/settings');
    fireEvent.click(await screen.findByTestId('chat-mute-1h'));
    await waitFor(() => expect(callsTo('PUT /api/message/groups/G_one/notifications')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('chat-mute-1h')).not.toBeDisabled());
    expect(chatStore.groups.G_one.muted).toBe(false);
    expect(screen.getByTestId('chat-mute-off')).toBeChecked();
  });

  it('leaves the chat after confirming: forgotten here, back to the list', async () => {
    const confirm = jest.spyOn(notify, 'confirm').mockResolvedValue(true);
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one', [ADA, BOB, CY])];
    routes['DELETE /api/message/group/G_one/participants/me'] = () => [204, null];
    renderRoutes(
      [
        { path: '/messages/:groupId/settings', element: <GroupSettings code="G_one" /> },
        { path: '/messages', element: <p>chat list</p> },
      ],
      '/messages/G_one/settings',
    );
    fireEvent.click(await screen.findByTestId('chat-settings-leave'));
    expect(await screen.findByText('chat list')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith('Leave this chat?', expect.anything());
    expect(callsTo('DELETE /api/message/group/G_one/participants/me')).toHaveLength(1);
    expect(chatStore.groups.G_one).toBeUndefined();
  });

  it('offers no leaving where both parties stay: a chat of two, an offer chat', async () => {
    for (const [code, people, extra] of [
      ['G_two', [ADA, BOB], {}],
      ['G_offer', [ADA, BOB, CY], { type: 4 }],
    ] as const) {
      routes[`GET /api/message/groups/${code}`] = () => [200, group(code, [...people], extra)];
      const view = renderRoutes([{ path: '/messages/:groupId/settings', element: <GroupSettings code={code} /> }], `/messages/${code}/settings`);
      await screen.findByTestId('chat-settings-name');
      expect(screen.queryByTestId('chat-settings-leave')).toBeNull();
      view.unmount();
    }
  });

  it('clears both with null when the fields are emptied', async () => {
    routes['GET /api/message/groups/G_one'] = () => [200, group('G_one', [ADA, BOB], { name: 'Team', subtitle: 'Old' })];
    routes['PATCH /api/message/groups/G_one'] = (body) => [200, group('G_one', [ADA, BOB], body as Partial<ChatGroup>)];
    renderRoutes([{ path: '/messages/:groupId/settings', element: <GroupSettings code="G_one" /> }], '/messages/G_one/settings');
    const name = await screen.findByTestId('chat-settings-name');
    expect(name).toHaveValue('Team');
    expect(screen.getByTestId('chat-settings-subtitle')).toHaveValue('Old');
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.change(screen.getByTestId('chat-settings-subtitle'), { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByTestId('chat-settings-save')));
    await waitFor(() => expect(callsTo('PATCH /api/message/groups/G_one')).toHaveLength(1));
    expect(callsTo('PATCH /api/message/groups/G_one')[0].body).toEqual({ name: null, subtitle: null });
    await waitFor(() => expect(chatStore.groups.G_one.name).toBeNull());
  });
});
