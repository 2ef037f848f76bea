import type { ChatMessage } from '@/api/chat.api';
import { announcementText, arrivedSince, maxSeq } from './live-announcements';

const msg = (seq: number, userCode: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  code: `M${seq}`,
  groupCode: 'G',
  seq,
  type: 1,
  message: `text ${seq}`,
  language: 'eng',
  translation: null,
  clientKey: null,
  userCode,
  user: { code: userCode, name: 'Bob', surname: 'Builder', avatar: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  files: [],
  deleted: false,
  ...extra,
});

describe('screen-reader announcements of new messages', () => {
  it("announces only other people's stored messages newer than the ones already seen", () => {
    const list = [msg(1, 'U_bob'), msg(2, 'U_me'), msg(3, 'U_bob'), msg(4, 'U_bob', { deleted: true }), { ...msg(0, 'U_bob'), code: '-pending' }];
    expect(arrivedSince(list, 1, 'U_me').map((m) => m.seq)).toEqual([3]);
    expect(maxSeq(list)).toBe(4);
  });

  it('reads the author and the text (the translation when there is one), or the number of files', () => {
    expect(announcementText(msg(1, 'U_bob'))).toBe('Bob Builder: text 1');
    expect(announcementText(msg(1, 'U_bob', { translation: 'tekst' }))).toBe('Bob Builder: tekst');
    expect(announcementText(msg(1, 'U_bob', { message: '', files: ['F1', 'F2'] }))).toBe('Bob Builder sent files (2)');
    expect(announcementText(msg(1, 'U_bob', { message: 'JOB_OFFER.MESSAGE.WITHDRAWN', offerNote: true }))).toBe('Bob Builder: The provider withdrew the offer');
  });
});
