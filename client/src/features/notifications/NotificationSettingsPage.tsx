import { Button, Checkbox, Group, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationsApi, type NotificationSettings } from '@/api/notifications.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { tk } from '@/i18n/i18n';
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS } from '@contracts/rest/notifications';

const CHANNEL_LABELS = { push: tk('NOTIFICATIONS.CHANNEL.PUSH'), email: tk('NOTIFICATIONS.CHANNEL.EMAIL') } as const;
const KIND_LABELS = {
  messages: tk('NOTIFICATIONS.KIND.MESSAGES'),
  offers: tk('NOTIFICATIONS.KIND.OFFERS'),
  payments: tk('NOTIFICATIONS.KIND.PAYMENTS'),
} as const;

/** Suggested when quiet hours are first switched on. */
export const DEFAULT_QUIET_HOURS = { start: '22:00', end: '07:00' };

/** /settings/notifications: per kind and channel a switch, and quiet hours for web push in the user's own timezone. */
export function NotificationSettingsPage() {
  const { t } = useTranslation();
  usePageHeader(t('NOTIFICATIONS.TITLE'));
  const [form, setForm] = useState<NotificationSettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    notificationsApi
      .settings()
      .then(setForm)
      .catch(() => setFailed(true));
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    try {
      setForm(await notificationsApi.save(form));
      notify.success(t('NOTIFICATIONS.SAVED'));
    } catch {
      // the global handler has shown the error
    } finally {
      setBusy(false);
    }
  };

  if (failed) return <Text c="dimmed">{t('NOTIFICATIONS.LOAD_FAILED')}</Text>;
  if (!form) return <Spinner />;
  const quiet = form.quietHours;
  return (
    <Stack component="form" onSubmit={save} p="md" gap="md" maw={640} data-testid="notification-settings">
      <Title order={3}>{t('NOTIFICATIONS.TITLE')}</Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            {NOTIFICATION_CHANNELS.map((channel) => (
              <Table.Th key={channel}>{t(CHANNEL_LABELS[channel])}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {NOTIFICATION_KINDS.map((kind) => (
            <Table.Tr key={kind}>
              <Table.Td>{t(KIND_LABELS[kind])}</Table.Td>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <Table.Td key={channel}>
                  <Checkbox
                    aria-label={`${t(KIND_LABELS[kind])}: ${t(CHANNEL_LABELS[channel])}`}
                    checked={form[channel][kind]}
                    onChange={(e) => setForm({ ...form, [channel]: { ...form[channel], [kind]: e.currentTarget.checked } })}
                    data-testid={`notify-${channel}-${kind}`}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Switch
        label={t('NOTIFICATIONS.QUIET_HOURS')}
        description={t('NOTIFICATIONS.QUIET_HOURS_HINT')}
        checked={quiet !== null}
        onChange={(e) => setForm({ ...form, quietHours: e.currentTarget.checked ? DEFAULT_QUIET_HOURS : null })}
        data-testid="quiet-hours"
      />
      {quiet ? (
        <Group grow>
          <TextInput
            type="time"
            label={t('NOTIFICATIONS.QUIET_FROM')}
            value={quiet.start}
            onChange={(e) => setForm({ ...form, quietHours: { ...quiet, start: e.currentTarget.value } })}
            data-testid="quiet-start"
          />
          <TextInput
            type="time"
            label={t('NOTIFICATIONS.QUIET_TO')}
            value={quiet.end}
            onChange={(e) => setForm({ ...form, quietHours: { ...quiet, end: e.currentTarget.value } })}
            data-testid="quiet-end"
          />
        </Group>
      ) : null}
      <Group justify="flex-end">
        <Button type="submit" loading={busy} data-testid="notification-settings-save">
          {t('NOTIFICATIONS.SAVE')}
        </Button>
      </Group>
    </Stack>
  );
}
