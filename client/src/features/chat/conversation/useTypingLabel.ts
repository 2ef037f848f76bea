import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { fullName } from '../chat-logic';
import { chatStore } from '../chat.store';

/** '<name> is typing…' while someone types in this chat, else null; it goes by itself when the typing ends. */
export function useTypingLabel(code: string, group: ChatGroup | undefined): string | null {
  const { t } = useTranslation();
  const typing = useSnapshot(chatStore).typing[code];
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!typing) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, typing.until - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [typing]);
  if (!typing || typing.until < now) return null;
  const who = group?.participants.find((p) => p.userCode === typing.userCode)?.user;
  return t('CHAT.TYPING', { name: who ? fullName(who) : '…' });
}
