import type { ChatMessage } from '@/api/chat.api';
import type { ParleySocket } from '@/realtime/connection';
import { storedMessage } from '../../../jest/chat-fixtures';
import { SYNC_MAX_GROUPS, SYNC_RETRY_MS, syncThreads } from './sync-threads';
import { chatStore, messagesOf, receiveMessages, resetChat, threadOf } from './chat.store';
import { resetEditCursors, startTranslationCursor, translationCursorOf } from './message-edits';

type SyncAnswer = { ok: true; messages: ChatMessage[]; more: string[]; missing: string[] } | { ok: false; error: { code: number; message: string } };

/** A socket whose sync answers come from `answer`; every request is kept. */
function fakeSocket(answer: (groups: { groupCode: string; afterSeq: number }[]) => SyncAnswer) {
  const asked: { groupCode: string; afterSeq: number }[][] = [];
  const socket = {
    timeout: () => ({
      emitWithAck: async (_event: string, payload: { groups: { groupCode: string; afterSeq: number }[] }) => {
        asked.push(payload.groups);
        return answer(payload.groups);
      },
    }),
  } as unknown as ParleySocket;
  return { socket, asked };
}

const inGroup = (groupCode: string, seq: number): ChatMessage => ({ ...storedMessage(seq), groupCode, code: `${groupCode}-${seq}` });

describe('syncThreads', () => {
  beforeEach(() => resetChat());
  afterEach(() => jest.useRealTimers());

  it('follows more from the newest seq held until the server has nothing more', async () => {
    threadOf('G_one').loaded = true;
    // The server answers at most 2 messages per round, up to seq 5.
    const { socket, asked } = fakeSocket(([g]) => {
      const seqs = [g.afterSeq + 1, g.afterSeq + 2].filter((s) => s <= 5);
      return { ok: true, messages: seqs.map((s) => inGroup('G_one', s)), more: seqs.at(-1)! < 5 ? ['G_one'] : [], missing: [] };
    });
    await syncThreads(socket);
    expect(asked.map(([g]) => g.afterSeq)).toEqual([0, 2, 4]);
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('asks for at most 100 groups at once, each once, and the rest in the next round', async () => {
    const codes = Array.from({ length: SYNC_MAX_GROUPS + 20 }, (_, i) => `G_${String(i).padStart(4, '0')}`);
    for (const code of codes) threadOf(code).loaded = true;
    const { socket, asked } = fakeSocket(() => ({ ok: true, messages: [], more: [], missing: [] }));
    await syncThreads(socket);
    expect(asked.map((groups) => groups.length)).toEqual([SYNC_MAX_GROUPS, 20]);
    const all = asked.flat().map((g) => g.groupCode);
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...codes].sort());
  });

  it('waits and asks again after a 429, and gives up on any other error', async () => {
    jest.useFakeTimers();
    threadOf('G_one').loaded = true;
    let calls = 0;
    const { socket, asked } = fakeSocket(() =>
      ++calls === 1
        ? { ok: false, error: { code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS' } }
        : { ok: true, messages: [inGroup('G_one', 1)], more: [], missing: [] },
    );
    const done = syncThreads(socket);
    await jest.advanceTimersByTimeAsync(SYNC_RETRY_MS);
    await done;
    expect(asked).toHaveLength(2);
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.seq)).toEqual([1]);

    const refused = fakeSocket(() => ({ ok: false, error: { code: 422, message: 'SHARED.ERROR.VALIDATION' } }));
    await syncThreads(refused.socket);
    expect(refused.asked).toHaveLength(1);
  });

  it('asks from the translation seq it holds and shows the translations stored while away (of the version it holds)', async () => {
    resetEditCursors();
    receiveMessages([storedMessage(1, { language: 'spa' }), storedMessage(2, { language: 'spa', editedAt: '2026-01-02T00:00:00.000Z' })]);
    threadOf('G_one').loaded = true;
    startTranslationCursor('G_one', 40);
    const asked: unknown[] = [];
    const socket = {
      timeout: () => ({
        emitWithAck: async (_event: string, payload: { groups: unknown[] }) => {
          asked.push(...payload.groups);
          return {
            ok: true,
            messages: [],
            more: [],
            missing: [],
            edited: [],
            editSeqs: {},
            translated: [
              { groupCode: 'G_one', code: 'M1', translation: 'translated while away', sourceEditedAt: null },
              // A translation of the text before the edit held: not this text's.
              { groupCode: 'G_one', code: 'M2', translation: 'of an older text', sourceEditedAt: null },
            ],
            translationSeqs: { G_one: 45 },
          };
        },
      }),
    } as unknown as ParleySocket;
    await syncThreads(socket);
    expect(asked).toEqual([{ groupCode: 'G_one', afterSeq: 2, afterTranslationSeq: 40 }]);
    expect(threadOf('G_one').bySeq[1].translation).toBe('translated while away');
    expect(threadOf('G_one').bySeq[2].translation).toBeNull();
    expect(translationCursorOf('G_one')).toBe(45);
  });
});
