import { Alert, Anchor, Badge, Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowDownLeft, IconArrowUpRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { type JobOffer, type PartyPayment, offerApi } from '@/api/offer.api';
import { Spinner } from '@/components/loaders/loaders';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { toJobOffer } from '@/routes/paths';
import { formatDateTime } from '@/components/format/dates';
import { tk } from '@/i18n/i18n';
import { intlLocaleOf } from '@/i18n/languages';
import { formatOfferMoney } from '../offer-format';
import { useOfferChanges } from '../useLiveOffer';
import { offerStore, storeOffer } from '../offer.store';
import { OfferActions } from './OfferActions';

interface PaymentsData {
  due: JobOffer[];
  payments: PartyPayment[];
}

/** What I owe and what I paid or was paid, loaded again after every offer:status push. */
function usePaymentsData(): { data: PaymentsData | null; failed: boolean } {
  const { language } = useSnapshot(preferencesStore);
  const changes = useOfferChanges(useSnapshot(offerStore).pushes);
  const [state, setState] = useState<{ data: PaymentsData | null; failed: boolean }>({ data: null, failed: false });
  useEffect(() => {
    let live = true;
    Promise.all([offerApi.forPayment(language), offerApi.payments(language)])
      .then(([due, paid]) => {
        if (!live) return;
        // The Pay buttons act on the store's copy, which pushes keep current.
        due.offers.forEach((o) => storeOffer(o));
        setState({ data: { due: due.offers, payments: paid.payments }, failed: false });
      })
      .catch(() => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [language, changes]);
  return state;
}

function DueOffer({ offer }: { offer: JobOffer }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const entry = useSnapshot(offerStore).byCode[offer.code];
  const current = entry?.state === 'loaded' ? (entry.offer as JobOffer) : offer;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="payment-due" data-code={offer.code}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2} miw={0} style={{ flex: '1 1 220px' }}>
          <Anchor component={Link} to={toJobOffer(offer.jobCode, offer.code)} fw={600} truncate>
            {offer.job?.title || t('OFFER.OFFER')}
          </Anchor>
          <Text size="lg" fw={700} data-testid="payment-due-amount">
            {formatOfferMoney(current.price, language)}
          </Text>
        </Stack>
        <OfferActions offer={current} side="customer" />
      </Group>
    </Paper>
  );
}

function PaymentRow({ payment }: { payment: PartyPayment }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const made = payment.direction === 'made';
  const other = payment.otherParty ? `${payment.otherParty.name} ${payment.otherParty.surname}`.trim() : '';
  const badge = paymentBadge(payment.status, made);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="payment-row" data-code={payment.code} data-direction={payment.direction} data-offer={payment.offerCode}>
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 240px' }} align="flex-start">
          {made ? (
            <IconArrowUpRight size={20} color="var(--mantine-color-red-6)" aria-hidden />
          ) : (
            <IconArrowDownLeft size={20} color="var(--mantine-color-green-6)" aria-hidden />
          )}
          <Stack gap={2} miw={0}>
            <Anchor component={Link} to={toJobOffer(payment.jobCode, payment.offerCode)} fw={600} truncate>
              {payment.jobTitle || t('OFFER.OFFER')}
            </Anchor>
            <Text size="xs" c="dimmed">
              {made ? t('PAYMENTS.TO', { name: other }) : t('PAYMENTS.FROM', { name: other })} · {formatDateTime(payment.createdAt, intlLocaleOf(language))}
            </Text>
            <Text size="xs" c="dimmed" data-testid="payment-reference">
              {t('PAYMENTS.REFERENCE', { reference: payment.reference || payment.code })}
            </Text>
          </Stack>
        </Group>
        <Stack gap={2} align="flex-end">
          <Text fw={700} style={{ whiteSpace: 'nowrap' }} data-testid="payment-amount">
            {made ? '−' : '+'}
            {formatOfferMoney(payment.amount, language)}
          </Text>
          <Badge color={badge.color} variant="light" data-testid="payment-status" data-status={payment.status}>
            {t(badge.label)}
          </Badge>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * A payment's state as its side sees it: a declared (pending) payment is only the customer's word until the
 * provider confirms it arrived; a disputed one did not arrive.
 */
export function paymentBadge(status: string, made: boolean): { label: string; color: string } {
  if (status === 'pending')
    return made ? { label: tk('PAYMENTS.AWAITING_CONFIRMATION'), color: 'yellow' } : { label: tk('PAYMENTS.DECLARED'), color: 'yellow' };
  if (status === 'disputed') return { label: tk('PAYMENTS.NOT_RECEIVED'), color: 'red' };
  return made ? { label: tk('PAYMENTS.MADE'), color: 'gray' } : { label: tk('PAYMENTS.RECEIVED'), color: 'green' };
}

/** /jobs/payments: offers waiting for my payment (with Pay), then the payments I made or received. */
export function PaymentsPage() {
  const { t } = useTranslation();
  usePageHeader(t('MENU.JOB_PAYMENTS'), t('PAYMENTS.SUBTITLE'));
  const { data, failed } = usePaymentsData();
  if (failed && !data) return <Alert color="red">{t('SHARED.ERROR.GENERIC')}</Alert>;
  if (!data) return <Spinner />;
  return (
    <Stack gap="lg" maw={960} data-testid="payments-page">
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="payments-due-title">
        <Title order={2} size="h4" mb="sm" id="payments-due-title">
          {t('PAYMENTS.DUE_TITLE')}
        </Title>
        {data.due.length ? (
          <Stack gap="xs">
            {data.due.map((o) => (
              <DueOffer key={o.code} offer={o} />
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="payments-none-due">
            {t('PAYMENTS.NONE_DUE')}
          </Text>
        )}
      </Card>
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="payments-history-title">
        <Title order={2} size="h4" mb="sm" id="payments-history-title">
          {t('PAYMENTS.HISTORY_TITLE')}
        </Title>
        {data.payments.length ? (
          <Stack gap="xs" data-testid="payments-history">
            {data.payments.map((p) => (
              <PaymentRow key={p.code} payment={p} />
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="payments-none">
            {t('PAYMENTS.NONE')}
          </Text>
        )}
      </Card>
    </Stack>
  );
}
