import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@/api/chat.api';
import { t as translate } from '@/i18n/i18n';
import { authorOf } from './chat.store';
import { fullName } from './chat-logic';

/** The screen-reader live region keeps the last few announcements (older ones are already read out). */
export const ANNOUNCEMENTS_KEPT = 5;

export interface Announcement {
  key: string;
  text: string;
}

/**
 * Stored messages of other people newer than `afterSeq`, oldest first: what arrived since the reader
 * last looked. Their own messages and older pages ('load older') are not announced.
 */
export function arrivedSince(messages: readonly ChatMessage[], afterSeq: number, me: string | null): ChatMessage[] {
  return messages.filter((m) => m.seq > afterSeq && m.userCode !== me && !m.deleted);
}

export const maxSeq = (messages: readonly ChatMessage[]): number => messages.reduce((max, m) => (m.seq > max ? m.seq : max), 0);

/** "Ada Lovelace: hello" (or "… sent 2 files" for a message with files only). */
export function announcementText(m: ChatMessage, t: (key: string, options?: Record<string, unknown>) => string = translate): string {
  const who = authorOf(m);
  const name = who ? fullName(who) : t('CHAT.SOMEONE');
  const raw = m.translation || m.message;
  // The marketplace's offer notes are translation keys.
  const text = m.offerNote ? t(raw.trim()) : raw;
  if (text.trim()) return `${name}: ${text}`;
  return t('CHAT.ANNOUNCE_FILES', { name, n: m.files?.length ?? 0 });
}

/** The live region's content for one open chat: messages of others that arrive while it is open. */
export function useNewMessageAnnouncements(code: string, messages: readonly ChatMessage[], me: string | null, loaded: boolean): Announcement[] {
  const { t } = useTranslation();
  const seen = useRef<{ code: string; seq: number } | null>(null);
  const [list, setList] = useState<Announcement[]>([]);
  useEffect(() => {
    if (!loaded) return;
    const top = maxSeq(messages);
    if (!seen.current || seen.current.code !== code) {
      seen.current = { code, seq: top };
      setList([]);
      return;
    }
    if (top <= seen.current.seq) return;
    const fresh = arrivedSince(messages, seen.current.seq, me);
    seen.current.seq = top;
    if (fresh.length) setList((prev) => [...prev, ...fresh.map((m) => ({ key: m.code, text: announcementText(m, t) }))].slice(-ANNOUNCEMENTS_KEPT));
  }, [code, messages, me, loaded, t]);
  return list;
}
