import { ADA, BOB, CY, chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { TOAST_TEXT_MAX, shouldToast, toastContent } from './message-toast';

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key);
// Ada reads; Bob writes in G_one.
const context = (extra: Partial<Parameters<typeof shouldToast>[1]> = {}) => ({ me: ADA.code, openCode: 'G_other', group: chatGroup('G_one'), ...extra });

describe('new message toasts', () => {
  it("toasts someone else's message in another chat the reader is in", () => {
    expect(shouldToast(storedMessage(1), context())).toBe(true);
    expect(shouldToast(storedMessage(1), context({ openCode: null }))).toBe(true);
  });

  it('does not toast the open chat, a muted chat, own or deleted messages, system notes, or a chat not yet known', () => {
    expect(shouldToast(storedMessage(1), context({ openCode: 'G_one' }))).toBe(false);
    expect(shouldToast(storedMessage(1), context({ group: chatGroup('G_one', { muted: true }) }))).toBe(false);
    expect(shouldToast(storedMessage(1, { userCode: ADA.code }), context())).toBe(false);
    expect(shouldToast(storedMessage(1, { deleted: true }), context())).toBe(false);
    expect(shouldToast(storedMessage(1, { userCode: null }), context())).toBe(false);
    expect(shouldToast(storedMessage(1), context({ group: undefined }))).toBe(false);
  });

  it('does not toast a room a moderator only watches (its complete participant list lacks them)', () => {
    const watched = chatGroup('G_one', { watched: true }, [BOB, CY]);
    expect(shouldToast(storedMessage(1), context({ group: watched }))).toBe(false);
  });

  it("names the chat and shows the author's text, cut when long; a direct chat's text leaves the name out", () => {
    const long = 'x'.repeat(500);
    const direct = toastContent(storedMessage(1, { user: BOB, message: long }), chatGroup('G_one', {}, [ADA, BOB]), ADA.code, t);
    expect(direct.title).toBe('Bob Builder');
    expect(direct.text.startsWith('xxx')).toBe(true);
    expect(direct.text).toHaveLength(TOAST_TEXT_MAX);
    expect(toastContent(storedMessage(3, { user: BOB }), chatGroup('G_one', {}, [ADA, BOB, CY]), ADA.code, t)).toEqual({
      title: 'Bob Builder, Cy Young',
      text: 'Bob Builder: message 3',
    });
    expect(toastContent(storedMessage(2, { user: BOB }), chatGroup('G_one', { name: 'Team' }), ADA.code, t)).toEqual({
      title: 'Team',
      text: 'Bob Builder: message 2',
    });
  });
});
