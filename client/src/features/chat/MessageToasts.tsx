import { Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatMessagePayload } from '@contracts/events';
import type { ChatMessage } from '@/api/chat.api';
import { NOTIFICATION_TIMEOUT_MS } from '@/components/notifications/notify';
import { sessionStore } from '@/features/session/session.store';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { subscribeSocket } from '@/realtime/subscribe';
import { toMessageGroup } from '@/routes/paths';
import { ensureGroup } from './chat-groups.actions';
import { chatStore } from './chat.store';
import { blocksStore, hiddenAsBlocked } from '@/features/reports/blocks.store';
import { shouldToast, toastContent } from './message-toast';
import { openChat } from './open-chat';

const toastId = (groupCode: string) => `message-toast-${groupCode}`;
/** Message codes already toasted (a message can arrive by push and sync); the newest few are enough. */
const TOASTED_KEPT = 200;

/**
 * A toast for each new message in another chat than the one on screen (not muted ones), which opens that chat
 * when tapped: on a phone with the menu closed it is what shows that something arrived. One toast per chat: a
 * newer message replaces the text of the shown one. Lives inside the router (it navigates). Renders nothing.
 */
export function MessageToasts() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = Boolean(useSnapshot(sessionStore).user);

  useEffect(() => {
    if (!loggedIn) return;
    const toasted: string[] = [];
    const shown = new Set<string>();
    const show = (message: ChatMessage) => {
      const group = chatStore.groups[message.groupCode];
      const me = sessionStore.user?.code ?? null;
      if (toasted.includes(message.code) || !group || !shouldToast(message, { me, openCode: openChat.code, group })) return;
      if (hiddenAsBlocked(blocksStore.blocked, message.userCode, group.type)) return;
      toasted.push(message.code);
      if (toasted.length > TOASTED_KEPT) toasted.shift();
      const { title, text } = toastContent(message, group, me, t);
      const id = toastId(message.groupCode);
      const open = () => {
        notifications.hide(id);
        navigate(toMessageGroup(message.groupCode));
      };
      const body = (
        <UnstyledButton onClick={open} aria-label={t('CHAT.TOAST_OPEN', { chat: title })} data-testid="message-toast" data-group={message.groupCode} w="100%">
          <Text size="sm" fw={600} truncate="end">
            {title}
          </Text>
          <Text size="sm" lineClamp={2}>
            {text}
          </Text>
        </UnstyledButton>
      );
      const toast = { id, message: body, color: 'blue', autoClose: NOTIFICATION_TIMEOUT_MS, 'data-kind': 'message', onClose: () => shown.delete(id) };
      if (shown.has(id)) notifications.update(toast);
      else notifications.show(toast);
      shown.add(id);
    };
    const handleMessage = (payload: ChatMessagePayload) => {
      const message = payload as ChatMessage;
      if (chatStore.groups[message.groupCode]) return show(message);
      // A chat this tab has not listed yet (a new one): its group is read first (the chat store asks for it too).
      void ensureGroup(message.groupCode)
        .then(() => show(message))
        .catch(() => undefined);
    };
    return subscribeSocket(realtimeConnection().connect(), { 'message:new': handleMessage });
  }, [loggedIn, navigate, t]);

  return null;
}
