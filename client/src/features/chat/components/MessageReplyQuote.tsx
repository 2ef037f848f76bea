import type { ChatReplyPreview } from '@contracts/events';
import { Box, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { fullName } from '../chat-logic';
import { chatStore } from '../chat.store';

export interface MessageReplyQuoteProps {
  groupCode: string;
  reply: ChatReplyPreview;
  /** Jumps to the original; without it (the default) the quote is plain text, as above the composer. */
  onJump?: (reply: ChatReplyPreview) => void;
}

/** The quoted message of a reply: its author and the start of its text, or the deleted marker. */
export function MessageReplyQuote({ groupCode, reply, onJump }: MessageReplyQuoteProps) {
  const { t } = useTranslation();
  const participants = useSnapshot(chatStore).groups[groupCode]?.participants;
  const author = participants?.find((p) => p.userCode === reply.userCode)?.user;
  const text = reply.deleted
    ? t('CHAT.DELETED')
    : reply.message.trim()
      ? reply.offerNote
        ? t(reply.message)
        : reply.message
      : t('CHAT.FILES_COUNT', { count: reply.files });
  const body = (
    <Box
      pl={8}
      py={2}
      style={{ borderLeft: '3px solid var(--mantine-primary-color-filled)', minWidth: 0 }}
      data-testid="chat-reply-quote"
      data-reply-to={reply.code}
      data-deleted={reply.deleted}
    >
      <Text size="xs" fw={600} truncate>
        {author ? fullName(author) : t('CHAT.SOMEONE')}
      </Text>
      <Text size="xs" c="dimmed" fs={reply.deleted ? 'italic' : undefined} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    </Box>
  );
  if (!onJump) return body;
  return (
    <UnstyledButton
      onClick={() => onJump(reply)}
      aria-label={t('CHAT.JUMP_TO_ORIGINAL')}
      display="block"
      mb={4}
      style={{ maxWidth: '100%' }}
      data-testid="chat-reply-jump"
    >
      {body}
    </UnstyledButton>
  );
}
