import { Badge, Group, Text } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Under a message the server marked off-platform (offPlatform): the reader's safety note, or for the message's
 * author a reminder that the other party sees that note. `flagged` (default false) adds the moderators' flag.
 */
export function OffPlatformNote({ mine, flagged = false }: { mine: boolean; flagged?: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" mt={4} data-testid="off-platform-note" data-flagged={flagged || undefined}>
      <IconShieldExclamation size={14} color="var(--mantine-color-orange-6)" style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
      <Text size="xs" c="orange.8">
        {mine ? t('SAFETY.NOTE_MINE') : t('SAFETY.NOTE_READER')}
      </Text>
      {flagged ? (
        <Badge size="xs" color="orange" variant="filled" style={{ flexShrink: 0 }} data-testid="off-platform-flag">
          {t('SAFETY.FLAG')}
        </Badge>
      ) : null}
    </Group>
  );
}
