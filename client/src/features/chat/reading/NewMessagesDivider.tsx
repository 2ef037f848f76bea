import { Divider } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Above the first message that was unread when the chat opened. */
export function NewMessagesDivider() {
  const { t } = useTranslation();
  return (
    <Divider
      my="xs"
      color="red"
      label={t('CHAT.NEW_MESSAGES_DIVIDER')}
      labelPosition="center"
      styles={{ label: { color: 'var(--mantine-color-red-text)' } }}
      data-testid="chat-new-divider"
    />
  );
}
