import { Badge, Tooltip } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Shown in a chat a moderator is watching live: watching is never secret. */
export function ModeratedBadge({ watched }: { watched: boolean }) {
  const { t } = useTranslation();
  if (!watched) return null;
  return (
    <Tooltip label={t('MODERATION.MODERATED_HINT')} multiline w={260}>
      <Badge color="orange" variant="light" leftSection={<IconShieldCheck size={12} aria-hidden />} data-testid="chat-moderated-badge" tabIndex={0}>
        {t('MODERATION.MODERATED')}
      </Badge>
    </Tooltip>
  );
}
