import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { JobOffer, OfferMoveCall, OfferTermsInput } from '@/api/offer.api';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { type OfferCall, type OfferSide, allowedCalls, nextMoveBy } from '../offer-actions';
import { type MoveOutcome, moveOffer, offerUi, reviseOffer } from '../offer.actions';
import { offerStore } from '../offer.store';
import { formatOfferMoney } from '../offer-format';
import { ACTION_TEXT, WAITING_FOR } from '../offer-labels';
import { offerStatusLook } from '../offer-status';
import { OfferForm } from './OfferForm';

type Dialog = 'choose' | 'pay' | 'update' | null;

/**
 * The moves this user may make on this offer in its status (offer-actions.ts), each behind a confirm and
 * disabled while any move of the offer is under way; a 409 is explained above the buttons.
 */
export function OfferActions({ offer, side }: { offer: JobOffer; side: OfferSide | null }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const ui = useSnapshot(offerUi);
  const busy = ui.busy[offer.code] ?? null;
  const conflict = ui.conflict[offer.code] ?? null;
  const [asking, setAsking] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [allowMore, setAllowMore] = useState(true);
  const [reference, setReference] = useState('');
  const calls = allowedCalls(offer.status, side);
  const locked = busy !== null || asking;

  const report = (outcome: MoveOutcome) => {
    if (outcome.ok) {
      const look = offerStatusLook(offerUiStatus(offer.code) ?? offer.status);
      notify.success(t('OFFERS.MOVED', { status: t(look.label) }));
    } else if (!outcome.conflict) outcome.messages.forEach((m) => notify.error(m));
    return outcome;
  };

  const ask = async (call: OfferCall): Promise<boolean> => {
    setAsking(true);
    try {
      return await notify.confirm(t(ACTION_TEXT[call].confirm), {
        title: t(ACTION_TEXT[call].label),
        confirmLabel: t(ACTION_TEXT[call].label),
        cancelLabel: t('OFFERS.CANCEL'),
      });
    } finally {
      setAsking(false);
    }
  };

  const handleCall = async (call: OfferCall) => {
    if (locked) return;
    if (call === 'choose' || call === 'pay' || call === 'update') {
      setDialog(call);
      return;
    }
    if (!(await ask(call))) return;
    report(await moveOffer(offer, call as OfferMoveCall));
  };

  const handleChoose = async () => {
    const outcome = report(await moveOffer(offer, 'choose', { allowForMoreOffers: allowMore }));
    if (outcome.ok || outcome.conflict) setDialog(null);
  };

  const handlePay = async () => {
    const outcome = report(await moveOffer(offer, 'pay', reference.trim() ? { reference: reference.trim() } : {}));
    if (outcome.ok || outcome.conflict) setDialog(null);
  };

  const handleRevise = async (terms: OfferTermsInput) => {
    const outcome = report(await reviseOffer(offer, terms));
    if (outcome.ok || outcome.conflict) setDialog(null);
  };

  const waiting = nextMoveBy(offer.status);
  return (
    <Stack gap="sm" data-testid="offer-actions" data-busy={busy ?? ''}>
      {conflict ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('OFFERS.CONFLICT_TITLE')} role="alert" data-testid="offer-conflict">
          <Text size="sm">{conflict}</Text>
          <Text size="sm" c="dimmed">
            {t('OFFERS.CONFLICT_REFRESHED')}
          </Text>
        </Alert>
      ) : null}
      {calls.length ? (
        <Group gap="sm" role="group" aria-label={t('OFFERS.ACTIONS')}>
          {calls.map((call) => (
            <Button
              key={call}
              color={ACTION_TEXT[call].danger ? 'red' : undefined}
              variant={ACTION_TEXT[call].danger ? 'light' : 'filled'}
              onClick={() => void handleCall(call)}
              disabled={locked && busy !== call}
              loading={busy === call}
              data-testid={`offer-action-${call}`}
            >
              {call === 'pay' ? t('OFFERS.ACTION.PAY_AMOUNT', { amount: formatOfferMoney(offer.price, language) }) : t(ACTION_TEXT[call].label)}
            </Button>
          ))}
        </Group>
      ) : side && waiting ? (
        <Text size="sm" c="dimmed" data-testid="offer-waiting">
          {t(WAITING_FOR[waiting])}
        </Text>
      ) : null}

      <Modal opened={dialog === 'choose'} onClose={() => setDialog(null)} title={t(ACTION_TEXT.choose.label)} data-testid="offer-choose-dialog">
        <Stack>
          <Text size="sm">{t(ACTION_TEXT.choose.confirm)}</Text>
          <Checkbox
            checked={allowMore}
            onChange={(e) => setAllowMore(e.currentTarget.checked)}
            label={t('OFFERS.ALLOW_MORE_OFFERS')}
            description={t('OFFERS.ALLOW_MORE_OFFERS_HINT')}
            data-testid="offer-allow-more"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)} disabled={busy !== null}>
              {t('OFFERS.CANCEL')}
            </Button>
            <Button onClick={() => void handleChoose()} loading={busy === 'choose'} data-testid="offer-choose-confirm">
              {t(ACTION_TEXT.choose.label)}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog === 'pay'} onClose={() => setDialog(null)} title={t(ACTION_TEXT.pay.label)} data-testid="offer-pay-dialog">
        <Stack>
          <Text size="sm">{t('OFFERS.PAY_TEXT', { amount: formatOfferMoney(offer.price, language) })}</Text>
          <TextInput
            label={t('OFFERS.PAY_REFERENCE')}
            description={t('OFFERS.PAY_REFERENCE_HINT')}
            maxLength={200}
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            data-testid="offer-pay-reference"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)} disabled={busy !== null}>
              {t('OFFERS.CANCEL')}
            </Button>
            <Button onClick={() => void handlePay()} loading={busy === 'pay'} data-testid="offer-pay-confirm">
              {t('OFFERS.ACTION.PAY_AMOUNT', { amount: formatOfferMoney(offer.price, language) })}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={dialog === 'update'} onClose={() => setDialog(null)} title={t(ACTION_TEXT.update.label)} size="lg" data-testid="offer-revise-dialog">
        <OfferForm mode="revise" offer={offer} busy={busy === 'update'} onSubmit={(terms) => void handleRevise(terms)} onCancel={() => setDialog(null)} />
      </Modal>
    </Stack>
  );
}

/** The offer's status in the store right after a move (the move's answer updated it). */
function offerUiStatus(code: string): number | null {
  const entry = offerStore.byCode[code];
  return entry?.state === 'loaded' ? entry.offer.status : null;
}
