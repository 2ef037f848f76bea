import { Alert, Button, Group, Text } from '@mantine/core';
import type { OffPlatformKind } from '@contracts/off-platform';
import { IconShieldExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { tk } from '@/i18n/i18n';

const KIND_LABELS: Record<OffPlatformKind, string> = {
  email: tk('SAFETY.KIND.email'),
  phone: tk('SAFETY.KIND.phone'),
  messenger: tk('SAFETY.KIND.messenger'),
  bankAccount: tk('SAFETY.KIND.bankAccount'),
  payment: tk('SAFETY.KIND.payment'),
};

export interface OffPlatformWarningProps {
  /** What the detector found in the text (at least one). */
  kinds: readonly OffPlatformKind[];
  onSendAnyway: () => void;
  onEdit: () => void;
}

/** Shown above the composer instead of sending: what was found, why it matters, and the two ways on. */
export function OffPlatformWarning({ kinds, onSendAnyway, onEdit }: OffPlatformWarningProps) {
  const { t } = useTranslation();
  const found = kinds.map((kind) => t(KIND_LABELS[kind])).join(', ');
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconShieldExclamation size={18} />}
      title={t('SAFETY.WARNING_TITLE')}
      role="alertdialog"
      aria-live="assertive"
      data-testid="off-platform-warning"
      data-kinds={kinds.join(' ')}
    >
      <Text size="sm">{t('SAFETY.WARNING_TEXT', { found })}</Text>
      <Group gap="xs" mt="xs">
        <Button size="compact-sm" onClick={onEdit} data-testid="off-platform-edit" data-autofocus>
          {t('SAFETY.EDIT')}
        </Button>
        <Button size="compact-sm" variant="subtle" color="orange" onClick={onSendAnyway} data-testid="off-platform-send-anyway">
          {t('SAFETY.SEND_ANYWAY')}
        </Button>
      </Group>
    </Alert>
  );
}
