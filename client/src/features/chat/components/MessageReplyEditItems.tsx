import { Menu } from '@mantine/core';
import { IconArrowBackUp, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@/api/chat.api';
import { canEditMessage, canReplyTo, startEdit, startReply } from '../reply-edit.store';

export interface MessageReplyEditItemsProps {
  message: ChatMessage;
  mine: boolean;
}

/** The message menu's Reply (any stored, live message) and Edit (my own text messages) entries. */
export function MessageReplyEditItems({ message, mine }: MessageReplyEditItemsProps) {
  const { t } = useTranslation();
  return (
    <>
      {canReplyTo(message) ? (
        <Menu.Item leftSection={<IconArrowBackUp size={14} />} onClick={() => startReply(message)} data-testid="chat-message-reply">
          {t('CHAT.REPLY')}
        </Menu.Item>
      ) : null}
      {mine && canEditMessage(message, message.userCode) ? (
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => startEdit(message)} data-testid="chat-message-edit">
          {t('CHAT.EDIT')}
        </Menu.Item>
      ) : null}
    </>
  );
}
