import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { ADA, BOB, chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { loadOlder } from './message-pages.actions';
import { pendingMessage } from './sending/send-message';
import { syncThreads } from './sync-threads';
import { collectOutbox } from './sending/outbox';
import { chatStore, receiveMessages, resetChat, threadOf, upsertGroup } from './chat.store';
import { applyMessageUpdate, applySyncedEdits, editCursorOf, markQuotesDeleted, resetEditCursors, startEditCursor } from './message-edits';
import { editMessage } from './message-changes.actions';
import {
  canEditMessage,
  canReplyTo,
  cancelComposerMode,
  replyEditStore,
  replyPreviewOf,
  resetReplyEdit,
  startEdit,
  startReply,
  takeReply,
} from './reply-edit.store';
import { jumpToOriginal } from './reply-jump';

type Handler = (body: unknown, url: string) => [number, unknown];
let routes: Record<string, Handler> = {};
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const path = new URL(url, 'http://x').pathname;
  const handler = routes[`${init.method} ${path}`];
  const [status, answer] = handler?.(init.body ? JSON.parse(init.body) : undefined, url) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

beforeEach(() => {
  resetChat();
  resetReplyEdit();
  resetEditCursors();
  routes = {};
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
  upsertGroup(chatGroup('G_one'));
});

describe('reply and edit state', () => {
  it('replies to stored live messages only, with a snippet of at most 200 characters', () => {
    const long = storedMessage(3, { message: 'é'.repeat(250), files: ['F1'] });
    expect(replyPreviewOf(long)).toEqual({ code: 'M3', seq: 3, type: 1, userCode: BOB.code, message: 'é'.repeat(200), files: 1, deleted: false });
    expect(canReplyTo(long)).toBe(true);
    expect(canReplyTo(storedMessage(4, { deleted: true }))).toBe(false);
    expect(canReplyTo({ ...storedMessage(5), seq: 0, code: '-tmp' })).toBe(false);
    // Stored codes are base64url: about one in 64 starts with '-', as a message still sending does. The seq tells them apart.
    expect(canReplyTo({ ...storedMessage(6), code: '-Xq3vTz9kLm0aB1c' })).toBe(true);

    startReply(long);
    expect(replyEditStore.modes.G_one).toMatchObject({ kind: 'reply', replyTo: { code: 'M3' } });
    // Sending takes the quote and puts the composer back to plain writing.
    expect(takeReply('G_one')).toMatchObject({ code: 'M3' });
    expect(replyEditStore.modes.G_one).toBeUndefined();
    expect(takeReply('G_one')).toBeNull();
  });

  it('lets me edit my own live text messages, not others, deleted ones, system messages or offer notes', () => {
    const mine = storedMessage(1, { userCode: ADA.code });
    expect(canEditMessage(mine, ADA.code)).toBe(true);
    expect(canEditMessage({ ...mine, code: '-Xq3vTz9kLm0aB1c' }, ADA.code)).toBe(true);
    expect(canEditMessage(mine, BOB.code)).toBe(false);
    expect(canEditMessage({ ...mine, deleted: true }, ADA.code)).toBe(false);
    expect(canEditMessage({ ...mine, type: 2 }, ADA.code)).toBe(false);
    expect(canEditMessage({ ...mine, offerNote: true }, ADA.code)).toBe(false);
    // A note's key typed by me is my message: only the server's mark makes a note.
    const typedKey = { ...mine, message: 'JOB_OFFER.MESSAGE.PAID' };
    expect(canEditMessage(typedKey, ADA.code)).toBe(true);

    startEdit(mine);
    expect(replyEditStore.modes.G_one).toEqual({ kind: 'edit', code: 'M1', text: 'message 1' });
    // One mode at a time: replying replaces the edit; cancel clears it.
    startReply(storedMessage(2));
    expect(replyEditStore.modes.G_one.kind).toBe('reply');
    cancelComposerMode('G_one');
    expect(replyEditStore.modes).toEqual({});
  });

  it('carries the quote on the optimistic message, in the send body and in the outbox', async () => {
    const replyTo = replyPreviewOf(storedMessage(2));
    const pending = pendingMessage({
      clientKey: '-k1',
      groupCode: 'G_one',
      message: 'yes',
      language: 'eng',
      files: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      replyTo,
    });
    expect(pending.replyTo).toEqual(replyTo);
    threadOf('G_one').pending['-k1'] = pending;
    expect(collectOutbox(chatStore.threads, ADA.code)[0].replyTo).toEqual(replyTo);
  });
});

describe('edits arriving', () => {
  it('applies a pushed edit to the message and the list line, keeps a deleted message deleted, and takes a later translation', () => {
    receiveMessages([storedMessage(1, { translation: 'Hallo' }), storedMessage(2, { deleted: true, message: '' })]);
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', message: 'fixed', translation: null, editedAt: '2026-01-02T00:00:00.000Z' });
    expect(threadOf('G_one').bySeq[1]).toMatchObject({ message: 'fixed', translation: null, editedAt: '2026-01-02T00:00:00.000Z' });
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', translation: 'Behoben' });
    expect(threadOf('G_one').bySeq[1]).toMatchObject({ message: 'fixed', translation: 'Behoben', editedAt: '2026-01-02T00:00:00.000Z' });
    applyMessageUpdate({ groupCode: 'G_one', code: 'M2', message: 'back?', translation: null, editedAt: '2026-01-02T00:00:00.000Z' });
    expect(threadOf('G_one').bySeq[2]).toMatchObject({ deleted: true, message: '' });
    expect(chatStore.groups.G_one.lastMessage).toMatchObject({ code: 'M2', deleted: true });
  });

  it('keeps the quotes of an edited or deleted original in step, as a reload would show them', () => {
    const quote = (code: string) => ({ code, seq: 1, type: 1, userCode: BOB.code, message: 'old', files: 0, deleted: false });
    receiveMessages([storedMessage(1), storedMessage(3, { replyTo: quote('M1') }), storedMessage(4, { replyTo: quote('M1') })]);
    applyMessageUpdate({ groupCode: 'G_one', code: 'M1', message: 'new words', translation: null, editedAt: '2026-01-02T00:00:00.000Z' });
    expect(threadOf('G_one').bySeq[3].replyTo).toMatchObject({ message: 'new words', deleted: false });
    markQuotesDeleted('G_one', 'M1');
    expect(threadOf('G_one').bySeq[4].replyTo).toMatchObject({ message: '', deleted: true });
  });

  it('starts the edit cursor at the first page and moves it with sync answers, applying what sync brought', async () => {
    receiveMessages([storedMessage(1), storedMessage(2)]);
    threadOf('G_one').loaded = true;
    startEditCursor('G_one', 7);
    startEditCursor('G_one', 9);
    expect(editCursorOf('G_one')).toBe(7);

    const asked: unknown[] = [];
    const socket = {
      timeout: () => ({
        emitWithAck: async (event: string, payload: unknown) => {
          asked.push([event, payload]);
          return {
            ok: true,
            messages: [storedMessage(3)],
            more: [],
            missing: [],
            edited: [
              storedMessage(1, { message: 'edited while away', editedAt: '2026-01-02T00:00:00.000Z' }),
              storedMessage(2, { deleted: true, message: '' }),
            ],
            editSeqs: { G_one: 12 },
          };
        },
      }),
    };
    await syncThreads(socket as never);
    expect(asked).toEqual([['sync', { groups: [{ groupCode: 'G_one', afterSeq: 2, afterEditSeq: 7 }] }]]);
    expect(threadOf('G_one').bySeq[1]).toMatchObject({ message: 'edited while away', editedAt: '2026-01-02T00:00:00.000Z' });
    expect(threadOf('G_one').bySeq[2].deleted).toBe(true);
    expect(threadOf('G_one').bySeq[3]).toBeDefined();
    expect(editCursorOf('G_one')).toBe(12);
    applySyncedEdits([], { G_one: 10 });
    expect(editCursorOf('G_one')).toBe(12);
  });

  it('saves an edit over REST while the socket is down and shows it; a refusal rejects with its key', async () => {
    receiveMessages([storedMessage(1, { userCode: ADA.code })]);
    const bodies: unknown[] = [];
    routes['PATCH /api/message/groups/G_one/messages/M1'] = (body) => {
      bodies.push(body);
      return [200, storedMessage(1, { userCode: ADA.code, message: 'better', editedAt: '2026-01-02T00:00:00.000Z' })];
    };
    await editMessage('G_one', 'M1', 'better');
    expect(bodies).toEqual([{ message: 'better' }]);
    expect(threadOf('G_one').bySeq[1]).toMatchObject({ message: 'better', editedAt: '2026-01-02T00:00:00.000Z' });

    routes['PATCH /api/message/groups/G_one/messages/M1'] = () => [409, { code: 409, message: 'CHAT.MESSAGE.DELETED' }];
    await expect(editMessage('G_one', 'M1', 'again')).rejects.toThrow('CHAT.MESSAGE.DELETED');
    routes['PATCH /api/message/groups/G_one/messages/M1'] = () => [
      422,
      { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.MESSAGE.EMPTY'] } },
    ];
    await expect(editMessage('G_one', 'M1', ' ')).rejects.toThrow('VALIDATION.MESSAGE.EMPTY');
  });
});

describe('jumping to the original', () => {
  it('loads older pages until the original is held, then highlights it', async () => {
    receiveMessages([storedMessage(120), storedMessage(121)]);
    Object.assign(threadOf('G_one'), { loaded: true, mayLoadOlder: true });
    const asked: unknown[] = [];
    routes['POST /api/message/groups/G_one/messages'] = (body) => {
      asked.push(body);
      const before = (body as { beforeSeq: number }).beforeSeq;
      const from = Math.max(1, before - 50);
      return [200, { messages: Array.from({ length: before - from }, (_, i) => storedMessage(from + i)), mayLoadOlder: from > 1, mayLoadNewer: false }];
    };
    expect(await jumpToOriginal('G_one', 30)).toBe(true);
    expect(asked).toEqual([{ beforeSeq: 120 }, { beforeSeq: 70 }]);
    expect(replyEditStore.highlighted).toMatchObject({ groupCode: 'G_one', seq: 30 });
    // Not there (never stored, or older than the first message): says so without loading forever.
    expect(await jumpToOriginal('G_one', 0)).toBe(false);
    await loadOlder('G_one');
  });
});
