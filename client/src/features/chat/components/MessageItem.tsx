import { ActionIcon, Box, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { type ListedMessage, formatMessageTime, fullName } from '../chat-logic';

export interface MessageItemProps {
  message: ListedMessage;
  mine: boolean;
  authorName: string;
  authorSurname: string;
  avatarUrl: string | null;
  onRetry: (clientKey: string) => void;
}

/** One message: avatar and name open a run of the same author; mine on the right; sending at half opacity, failed in red. */
export const MessageItem = memo(function MessageItem({ message, mine, authorName, authorSurname, avatarUrl, onRetry }: MessageItemProps) {
  const { t } = useTranslation();
  const failed = message.state === 'failed';
  const head = !message.hasPrevious;
  return (
    <Group
      align="flex-end"
      justify={mine ? 'flex-end' : 'flex-start'}
      wrap="nowrap"
      gap="xs"
      mt={head ? 'sm' : 2}
      style={{ opacity: message.state === 'sending' ? 0.5 : 1 }}
      data-testid="chat-message"
      data-code={message.code}
      data-seq={message.seq}
      data-state={message.state}
      data-mine={mine}
      data-has-previous={message.hasPrevious}
      data-has-next={message.hasNext}
    >
      {!mine ? <Box w={32}>{!message.hasNext ? <UserAvatar name={authorName} surname={authorSurname} url={avatarUrl} size="sm" /> : null}</Box> : null}
      <Stack gap={2} maw="70%" align={mine ? 'flex-end' : 'flex-start'}>
        {head ? (
          <Group gap={6}>
            <Text size="xs" fw={600}>
              {mine ? t('CHAT.ME') : fullName({ name: authorName, surname: authorSurname })}
            </Text>
            <Text size="xs" c="dimmed" data-testid="chat-message-time">
              {formatMessageTime(message.createdAt)}
            </Text>
          </Group>
        ) : null}
        <Tooltip label={formatMessageTime(message.createdAt)} disabled={head} openDelay={500}>
          <Paper
            px="sm"
            py={6}
            radius="md"
            bg={mine ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
            style={failed ? { border: '1px solid var(--mantine-color-error)' } : undefined}
          >
            {message.deleted ? (
              <Text size="sm" fs="italic" c="dimmed" data-testid="chat-message-deleted">
                {t('CHAT.DELETED')}
              </Text>
            ) : (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="chat-message-text">
                {message.message}
              </Text>
            )}
          </Paper>
        </Tooltip>
        {failed ? (
          <Group gap={4}>
            <Text size="xs" c="var(--mantine-color-error)" data-testid="chat-message-failed">
              {t('CHAT.FAILED')} · {message.code}
            </Text>
            <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('CHAT.RETRY')} onClick={() => onRetry(message.clientKey as string)} data-testid="chat-message-retry">
              <IconRefresh size={14} />
            </ActionIcon>
          </Group>
        ) : null}
      </Stack>
    </Group>
  );
});
