import { Anchor, Group, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A blocked user's message, collapsed to one line until the reader asks to see it. */
export function BlockedMessage({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  if (shown) return <>{children}</>;
  return (
    <Group gap={4} mt="sm" pl={40} data-testid="blocked-message">
      <Text size="xs" c="dimmed" fs="italic">
        {t('REPORTS.BLOCKED_MESSAGE')} ·
      </Text>
      <Anchor component="button" type="button" size="xs" onClick={() => setShown(true)} data-testid="blocked-message-show">
        {t('REPORTS.SHOW')}
      </Anchor>
    </Group>
  );
}
