import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { sessionStore } from '@/features/session/session.store';
import { realtimeStore } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { subscribeSocket } from '@/realtime/subscribe';
import { UNREAD_POLL_MS } from './chat-logic';
import { ensureGroup } from './chat-groups.actions';
import { loadUnread, markRead } from './unread.actions';
import { syncThreads } from './sync-threads';
import { applyGroupUpdate, applyUnread, chatStore, markDeleted, receiveMessage, resetChat } from './chat.store';
import { applyMessageUpdate, markQuotesDeleted, resetEditCursors } from './message-edits';
import { resetReplyEdit } from './reply-edit.store';
import { loadTranslationStatus, resetTranslationStatus } from './translation-status';
import { openChat } from './open-chat';

const TYPING_SHOWN_MS = 3_000;

/**
 * The chat's socket subscriptions for the whole tab (the menu badge needs them on every page): pushes go
 * into the chat store; every (re)connect syncs the loaded threads; while the socket is down the unread
 * count is polled every 10 s. Renders nothing.
 */
export function ChatRealtime() {
  const { token, user } = useSnapshot(sessionStore);
  const { status } = useSnapshot(realtimeStore);
  const loggedIn = Boolean(token && user);

  useEffect(() => {
    if (!loggedIn) {
      resetChat();
      resetReplyEdit();
      resetEditCursors();
      resetTranslationStatus();
      return;
    }
    void loadUnread().catch(() => undefined);
    void loadTranslationStatus();
    const socket = realtimeConnection().connect();
    // The count was just asked for above: only a reconnect may have missed changes to it.
    let reconnect = socket.connected;
    const handleConnect = () => {
      void syncThreads(socket).catch(() => undefined);
      if (reconnect) void loadUnread().catch(() => undefined);
      reconnect = true;
    };
    const handleMessage = (message: Parameters<typeof receiveMessage>[0]) => {
      const isNew = receiveMessage(message);
      if (!chatStore.groups[message.groupCode]) void ensureGroup(message.groupCode).catch(() => undefined);
      if (isNew && openChat.code === message.groupCode && document.visibilityState === 'visible' && message.userCode !== sessionStore.user?.code) {
        void markRead(message.groupCode);
      }
    };
    const handleDeleted = ({ groupCode, code }: { groupCode: string; code: string }) => {
      markDeleted(groupCode, code);
      markQuotesDeleted(groupCode, code);
    };
    const handleUpdated = (update: Parameters<typeof applyMessageUpdate>[0]) => applyMessageUpdate(update);
    const handleUnread = (count: Parameters<typeof applyUnread>[0]) => applyUnread(count, false);
    const handleGroup = (group: object) => applyGroupUpdate(group as ChatGroup, sessionStore.user?.code ?? null);
    const handleTyping = ({ groupCode, userCode }: { groupCode: string; userCode: string }) => {
      chatStore.typing[groupCode] = { userCode, until: Date.now() + TYPING_SHOWN_MS };
    };
    return subscribeSocket(socket, {
      connect: handleConnect,
      'message:new': handleMessage,
      'message:deleted': handleDeleted,
      'message:updated': handleUpdated,
      'unread:count': handleUnread,
      'group:updated': handleGroup,
      typing: handleTyping,
    });
  }, [loggedIn]);

  useEffect(() => {
    if (!loggedIn || status === 'connected') return;
    const timer = setInterval(() => void loadUnread().catch(() => undefined), UNREAD_POLL_MS);
    return () => clearInterval(timer);
  }, [loggedIn, status]);

  return null;
}
