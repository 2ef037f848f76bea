import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { t } from '@/i18n/i18n';

/** Spec section 9: notifications stay 15 s, a confirm 60 s, and fade out in 400 ms. */
export const NOTIFICATION_TIMEOUT_MS = 15_000;
export const CONFIRM_TIMEOUT_MS = 60_000;
export const NOTIFICATION_FADE_MS = 400;

export type NotificationKind = 'success' | 'error' | 'info';

const COLORS: Record<NotificationKind, string> = { success: 'green', error: 'red', info: 'blue' };

let sequence = 0;

function show(kind: NotificationKind, message: string, title?: string): string {
  const id = `notify-${++sequence}`;
  notifications.show({
    id,
    color: COLORS[kind],
    title,
    message,
    autoClose: NOTIFICATION_TIMEOUT_MS,
    'data-kind': kind,
  });
  return id;
}

/** A question with yes/no buttons; resolves false when dismissed or after 60 s. */
function confirm(message: string, options: { title?: string; confirmLabel?: string; cancelLabel?: string } = {}): Promise<boolean> {
  const id = `confirm-${++sequence}`;
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const settle = (answer: boolean) => {
      if (settled) return;
      settled = true;
      resolve(answer);
      notifications.hide(id);
    };
    notifications.show({
      id,
      color: 'blue',
      title: options.title,
      autoClose: CONFIRM_TIMEOUT_MS,
      withCloseButton: true,
      'data-kind': 'confirm',
      onClose: () => settle(false),
      message: (
        <Stack gap="xs">
          <Text size="sm">{message}</Text>
          <Group gap="xs">
            <Button size="xs" onClick={() => settle(true)} data-testid="confirm-yes">
              {options.confirmLabel ?? t('SHARED.CONFIRM.YES')}
            </Button>
            <Button size="xs" variant="default" onClick={() => settle(false)} data-testid="confirm-no">
              {options.cancelLabel ?? t('SHARED.CONFIRM.NO')}
            </Button>
          </Group>
        </Stack>
      ),
    });
  });
}

function close(id?: string): void {
  if (!id) {
    console.warn("can't close");
    return;
  }
  notifications.hide(id);
}

export const notify = {
  success: (message: string, title?: string) => show('success', message, title),
  error: (message: string, title?: string) => show('error', message, title),
  info: (message: string, title?: string) => show('info', message, title),
  confirm,
  close,
};
