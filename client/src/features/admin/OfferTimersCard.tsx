import { Button, Card, Group, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type InstanceOfferTimers, offerTimersApi } from '@/api/offer-timers.api';
import { notify } from '@/components/notifications/notify';

/** "3, 7" → [3, 7]; anything that is not a list of whole numbers is sent as it is, for the server to name the rule. */
export const parseDays = (text: string): number[] =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);

/**
 * For instance and global admins: how long an offer may wait in each status before it expires or the work is
 * accepted for the customer, and when the parties are reminded. The server checks the values; a refusal is shown
 * by the error handler and changes nothing.
 */
export function OfferTimersCard({ instanceCode }: { instanceCode: string }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<InstanceOfferTimers | null>(null);
  const [values, setValues] = useState({ offerExpiryDays: 0, finalizeAutoAcceptDays: 0, reminderDaysBefore: 0, paymentReminderDays: '' });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    offerTimersApi
      .get(instanceCode)
      .then((s) => {
        if (!live) return;
        setSaved(s);
        setValues({ ...s, paymentReminderDays: s.paymentReminderDays.join(', ') });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [instanceCode]);

  if (!saved) return null;
  const days = (key: 'offerExpiryDays' | 'finalizeAutoAcceptDays' | 'reminderDaysBefore') => ({
    value: values[key],
    onChange: (v: string | number) => setValues((old) => ({ ...old, [key]: typeof v === 'number' ? v : Number(v) })),
    min: 0,
    max: 365,
    allowDecimal: false,
  });

  const handleSave = async () => {
    setSaving(true);
    try {
      const next = await offerTimersApi.save(instanceCode, { ...values, paymentReminderDays: parseDays(values.paymentReminderDays) });
      setSaved(next);
      notify.success(t('ADMIN.TIMERS.SAVED'));
    } catch {
      // The error handler has shown why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card withBorder radius="md" data-testid="offer-timers">
      <Stack gap="xs">
        <Title order={4}>{t('ADMIN.TIMERS.TITLE')}</Title>
        <Text size="sm" c="dimmed">
          {t('ADMIN.TIMERS.HINT')}
        </Text>
        <NumberInput label={t('ADMIN.TIMERS.OFFER_EXPIRY_DAYS')} {...days('offerExpiryDays')} data-testid="timers-offer-expiry" />
        <NumberInput label={t('ADMIN.TIMERS.FINALIZE_AUTO_ACCEPT_DAYS')} {...days('finalizeAutoAcceptDays')} data-testid="timers-auto-accept" />
        <NumberInput label={t('ADMIN.TIMERS.REMINDER_DAYS_BEFORE')} {...days('reminderDaysBefore')} data-testid="timers-reminder-before" />
        <TextInput
          label={t('ADMIN.TIMERS.PAYMENT_REMINDER_DAYS')}
          description={t('ADMIN.TIMERS.PAYMENT_REMINDER_DAYS_HINT')}
          value={values.paymentReminderDays}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setValues((old) => ({ ...old, paymentReminderDays: text }));
          }}
          data-testid="timers-payment-reminders"
        />
        <Group>
          <Button type="button" variant="light" loading={saving} onClick={() => void handleSave()} data-testid="timers-save">
            {t('ADMIN.TIMERS.SAVE')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
