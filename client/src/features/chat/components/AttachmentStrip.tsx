import { ActionIcon, Box, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconRefresh, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FileTile } from '@/components/file-preview/FileTile';
import { type Attachment, progressOf } from '../attachments';

export interface AttachmentStripProps {
  list: readonly Attachment[];
  onRemove: (id: string) => void;
  onRetry: (id: string) => void;
}

/** The composer's attached files: a preview tile each (image thumbnail or file icon), upload progress, remove and retry. */
export function AttachmentStrip({ list, onRemove, onRetry }: AttachmentStripProps) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" style={{ overflowX: 'auto' }} py={4} role="list" aria-label={t('CHAT.ATTACHMENTS')} data-testid="chat-attachments">
      {list.map((a) => {
        const percent = progressOf(a);
        return (
          <Stack key={a.id} gap={2} role="listitem" miw={180} data-testid="chat-attachment" data-status={a.status} data-name={a.file.name}>
            <Group gap={4} wrap="nowrap" align="center">
              <Box miw={0} style={{ flex: 1 }}>
                <FileTile file={a.file} />
              </Box>
              {a.status === 'failed' ? (
                <Tooltip label={t('CHAT.ATTACH_RETRY')}>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('CHAT.ATTACH_RETRY_NAMED', { name: a.file.name })}
                    onClick={() => onRetry(a.id)}
                    data-testid="chat-attachment-retry"
                  >
                    <IconRefresh size={14} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
              <Tooltip label={t('CHAT.ATTACH_REMOVE')}>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={t('CHAT.ATTACH_REMOVE_NAMED', { name: a.file.name })}
                  onClick={() => onRemove(a.id)}
                  data-testid="chat-attachment-remove"
                >
                  <IconX size={14} />
                </ActionIcon>
              </Tooltip>
            </Group>
            {a.status === 'failed' ? (
              <Text size="xs" c="var(--mantine-color-error)" data-testid="chat-attachment-error">
                {t(a.error ?? 'CHAT.ATTACH_FAILED')}
              </Text>
            ) : (
              <Progress
                size="xs"
                value={percent}
                color={a.status === 'done' ? 'teal' : undefined}
                animated={a.status === 'uploading'}
                aria-label={t('CHAT.ATTACH_PROGRESS', { name: a.file.name, percent })}
                data-testid="chat-attachment-progress"
                data-value={percent}
              />
            )}
          </Stack>
        );
      })}
    </Group>
  );
}
