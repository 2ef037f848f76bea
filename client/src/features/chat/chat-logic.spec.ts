import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import {
  byActivity,
  canDeleteMessage,
  canLoadMessages,
  canSend,
  canWrite,
  failedCode,
  formatMessageTime,
  groupTitle,
  messageState,
  newClientKey,
  shownText,
  withGroupingFlags,
} from './chat-logic';

const person = (code: string, name: string, surname: string) => ({ userCode: code, role: 0, readSeq: 0, user: { code, name, surname, avatar: null } });
const ME = person('U_me', 'Me', 'Myself');
const group = (participants: ChatGroup['participants'], extra: Partial<ChatGroup> = {}) =>
  ({ name: null, participants, participantCount: participants.length, ...extra }) as ChatGroup;

describe('group name rule', () => {
  it('uses the name when set', () => {
    expect(groupTitle(group([ME, person('U_a', 'Ada', 'L')], { name: 'Team' }), 'U_me')).toMatchObject({ title: 'Team', more: 0, empty: false });
  });

  it('names up to 2 other participants, then +N with everyone in the tooltip', () => {
    const people = [
      ME,
      person('U_a', 'Ada', 'Lovelace'),
      person('U_b', 'Alan', 'Turing'),
      person('U_c', 'Grace', 'Hopper'),
      person('U_d', 'Edsger', 'Dijkstra'),
    ];
    expect(groupTitle(group(people.slice(0, 2)), 'U_me')).toEqual({ title: 'Ada Lovelace', more: 0, everyone: ['Ada Lovelace'], empty: false });
    expect(groupTitle(group(people), 'U_me')).toEqual({
      title: 'Ada Lovelace, Alan Turing',
      more: 2,
      everyone: ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra'],
      empty: false,
    });
  });

  it('counts participants beyond the 20 a list carries', () => {
    const people = [ME, person('U_a', 'Ada', 'L'), person('U_b', 'Alan', 'T')];
    expect(groupTitle(group(people, { participantCount: 30 }), 'U_me').more).toBe(27);
  });

  it('names chats about a job after the job, with the other people as subtitle', () => {
    const offerChat = group([ME, person('U_p', 'Piotr', 'Provider')], { jobTitle: 'Paint the fence' });
    expect(groupTitle(offerChat, 'U_me')).toEqual({
      title: 'Paint the fence',
      more: 0,
      everyone: ['Piotr Provider'],
      empty: false,
      subtitle: 'Piotr Provider',
    });
    const faq = group([ME, person('U_a', 'Ada', 'L'), person('U_b', 'Bob', 'B'), person('U_c', 'Cy', 'C')], {
      jobTitle: 'Paint the fence',
      participantCount: 6,
    });
    expect(groupTitle(faq, 'U_me').subtitle).toBe('Ada L, Bob B +3');
    // A name set on the group still wins; other chats keep the people rule.
    expect(groupTitle(group([ME], { name: 'Crew', jobTitle: 'Paint the fence' }), 'U_me').title).toBe('Crew');
    expect(groupTitle(group([ME, person('U_a', 'Ada', 'L')], { jobTitle: null }), 'U_me').subtitle).toBeUndefined();
  });

  it("says 'No users' when nobody else is in the group", () => {
    expect(groupTitle(group([ME]), 'U_me').empty).toBe(true);
    expect(groupTitle(group([]), 'U_me').empty).toBe(true);
  });
});

describe('message time', () => {
  it('is yyyy.MM.dd HH:mm:ss in local time', () => {
    expect(formatMessageTime(new Date(2026, 0, 5, 7, 8, 9))).toBe('2026.01.05 07:08:09');
    expect(formatMessageTime(new Date(2026, 11, 31, 23, 59, 59).toISOString())).toBe('2026.12.31 23:59:59');
    expect(formatMessageTime('nonsense')).toBe('');
  });
});

describe('temporary and failed codes', () => {
  it("makes keys that start with '-' and fit the server's clientKey pattern", () => {
    const key = newClientKey();
    expect(key.startsWith('-')).toBe(true);
    expect(key).toMatch(/^-?[A-Za-z0-9_-]{1,64}$/);
    expect(newClientKey()).not.toBe(key);
  });

  it("reads the state from the code: '-' sending, '!' failed", () => {
    expect(messageState('-abc')).toBe('sending');
    expect(messageState(failedCode('-abc'))).toBe('failed');
    expect(failedCode('-abc')).toBe('!-abc');
    expect(messageState('Mxyz')).toBe('sent');
  });
});

describe('grouping flags', () => {
  const m = (code: string, userCode: string | null, extra: Partial<ChatMessage> = {}) => ({ code, userCode, type: 1, deleted: false, ...extra }) as ChatMessage;

  it('links consecutive messages of the same author', () => {
    const flags = withGroupingFlags([m('1', 'a'), m('2', 'a'), m('3', 'a'), m('4', 'b'), m('5', 'a'), m('-6', 'a')]).map((x) => [
      x.hasPrevious,
      x.hasNext,
      x.state,
    ]);
    expect(flags).toEqual([
      [false, true, 'sent'],
      [true, true, 'sent'],
      [true, false, 'sent'],
      [false, false, 'sent'],
      [false, true, 'sent'],
      [true, false, 'sending'],
    ]);
  });

  it('does not group system messages or deleted markers', () => {
    const flags = withGroupingFlags([m('1', null), m('2', null), m('3', 'a', { deleted: true }), m('4', 'a')]).map((x) => [x.hasPrevious, x.hasNext]);
    expect(flags).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });
});

describe('enablement and ordering', () => {
  it('enables the field for a group id of 5+ characters or more than one participant', () => {
    expect(canWrite('abcde', 1)).toBe(true);
    expect(canWrite('abcd', 1)).toBe(false);
    expect(canWrite('abcd', 2)).toBe(true);
    expect(canWrite(null, 0)).toBe(false);
  });

  it('loads messages only for a group id of 5+ characters', () => {
    expect(canLoadMessages('abcde')).toBe(true);
    expect(canLoadMessages('new')).toBe(false);
    expect(canLoadMessages('')).toBe(false);
  });

  it('sends only text or files', () => {
    expect(canSend('  ', 0)).toBe(false);
    expect(canSend('', 1)).toBe(true);
    expect(canSend('hi', 0)).toBe(true);
  });

  it('orders groups by newest activity, empty groups last', () => {
    const gs = [
      { code: 'a', lastMessageAt: null },
      { code: 'b', lastMessageAt: '2026-01-01T00:00:00Z' },
      { code: 'c', lastMessageAt: '2026-02-01T00:00:00Z' },
    ];
    expect([...gs].sort(byActivity).map((g) => g.code)).toEqual(['c', 'b', 'a']);
  });
});

describe('message menu rules', () => {
  const msg = { code: 'M1', userCode: 'U_a', deleted: false };

  it('lets the author and moderators (50, 100) delete a stored message, nobody else', () => {
    expect(canDeleteMessage(msg, 'U_a', 0)).toBe(true);
    expect(canDeleteMessage(msg, 'U_b', 0)).toBe(false);
    expect(canDeleteMessage(msg, 'U_b', 10)).toBe(false);
    expect(canDeleteMessage(msg, 'U_b', 50)).toBe(true);
    expect(canDeleteMessage(msg, 'U_b', 100)).toBe(true);
    expect(canDeleteMessage({ ...msg, userCode: null }, null, 0)).toBe(false);
  });

  it('offers no delete for deleted, sending or failed messages', () => {
    expect(canDeleteMessage({ ...msg, deleted: true }, 'U_a', 100)).toBe(false);
    expect(canDeleteMessage({ ...msg, code: '-abc' }, 'U_a', 100)).toBe(false);
    expect(canDeleteMessage({ ...msg, code: '!-abc' }, 'U_a', 100)).toBe(false);
  });

  it('shows the translation unless the original was asked for', () => {
    expect(shownText({ message: 'Cześć', translation: 'Hi' }, false)).toBe('Hi');
    expect(shownText({ message: 'Cześć', translation: 'Hi' }, true)).toBe('Cześć');
    expect(shownText({ message: 'Hello', translation: null }, false)).toBe('Hello');
  });
});

describe('stored messages whose server code starts with a dash', () => {
  it('are sent, and deletable, because they have a seq', () => {
    const stored = { code: '-Xk2server', userCode: 'U_a', deleted: false, seq: 7, type: 1 } as ChatMessage;
    expect(withGroupingFlags([stored])[0].state).toBe('sent');
    expect(canDeleteMessage(stored, 'U_b', 50)).toBe(true);
    expect(withGroupingFlags([{ ...stored, seq: 0 }])[0].state).toBe('sending');
    expect(canDeleteMessage({ ...stored, seq: 0 }, 'U_a', 0)).toBe(false);
  });
});
