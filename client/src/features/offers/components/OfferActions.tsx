import { Alert, Box, Button, Checkbox, Group, Modal, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { JobOffer, OfferMoveCall, OfferTermsInput } from '@/api/offer.api';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { type OfferCall, type OfferGuide, type OfferSide, offerGuide } from '../offer-actions';
import { type MoveOutcome, moveOffer, offerUi, reviseOffer } from '../offer.actions';
import { offerStore } from '../offer.store';
import { formatOfferMoney } from '../offer-format';
import { ACTION_TEXT, awaitedText } from '../offer-labels';
import { offerStatusLook } from '../offer-status';
import { OfferForm } from './OfferForm';

/** Calls whose confirmation asks for more than yes: what the confirmation adds above its buttons. */
type Extra = 'choose' | 'pay';

/**
 * What this user may do on this offer and what it waits for, in words (offer-actions.ts reads both off the
 * transition table). Every move is confirmed the same way, in a popover anchored to its button (Choose and Pay
 * ask their question there too); only a revision opens the offer form. While any move is under way the buttons
 * are disabled; a 409 is explained above them, and the move's result is said beside them.
 */
export function OfferActions({ offer, side }: { offer: JobOffer; side: OfferSide | null }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const ui = useSnapshot(offerUi);
  const busy = ui.busy[offer.code] ?? null;
  const conflict = ui.conflict[offer.code] ?? null;
  const [open, setOpen] = useState<OfferCall | null>(null);
  const [revising, setRevising] = useState(false);
  const [allowMore, setAllowMore] = useState(true);
  const [reference, setReference] = useState('');
  const [moved, setMoved] = useState<number | null>(null);
  // A confirmation left open while the offer moved on (the other party, another tab) closes with its button.
  const [stale, setStale] = useState(false);
  const guide = offerGuide(offer.status, side);
  const openGone = open !== null && !guide.calls.includes(open);
  useEffect(() => {
    if (!openGone) return;
    setOpen(null);
    setStale(true);
  }, [openGone]);
  const forward = guide.calls.filter((c) => !ACTION_TEXT[c].danger);
  const price = formatOfferMoney(offer.price, language);

  const report = (outcome: MoveOutcome) => {
    if (outcome.ok) setMoved(offerUiStatus(offer.code) ?? offer.status);
    else if (!outcome.conflict) outcome.messages.forEach((m) => notify.error(m));
    if (outcome.ok || outcome.conflict) {
      setOpen(null);
      setRevising(false);
    }
    return outcome;
  };

  const bodyOf = (call: OfferCall): Partial<{ allowForMoreOffers: boolean; reference: string }> => {
    if (call === 'choose') return { allowForMoreOffers: allowMore };
    if (call === 'pay') return reference.trim() ? { reference: reference.trim() } : {};
    return {};
  };

  const confirm = async (call: OfferCall) => {
    if (busy !== null) return;
    setMoved(null);
    report(await moveOffer(offer, call as OfferMoveCall, bodyOf(call)));
  };

  const handleRevise = async (terms: OfferTermsInput) => {
    setMoved(null);
    report(await reviseOffer(offer, terms));
  };

  const extra = (call: Extra) =>
    call === 'choose' ? (
      <Checkbox
        checked={allowMore}
        onChange={(e) => setAllowMore(e.currentTarget.checked)}
        label={t('OFFERS.ALLOW_MORE_OFFERS')}
        description={t('OFFERS.ALLOW_MORE_OFFERS_HINT')}
        data-testid="offer-allow-more"
      />
    ) : (
      <TextInput
        label={t('OFFERS.PAY_REFERENCE')}
        description={t('OFFERS.PAY_REFERENCE_HINT')}
        maxLength={200}
        value={reference}
        onChange={(e) => setReference(e.currentTarget.value)}
        data-testid="offer-pay-reference"
      />
    );

  const button = (call: OfferCall) => {
    const text = ACTION_TEXT[call];
    const label = call === 'pay' ? t('OFFERS.ACTION.PAY_AMOUNT', { amount: price }) : t(text.label);
    const trigger = (
      <Button
        color={text.danger ? 'red' : undefined}
        variant={text.danger ? 'light' : 'filled'}
        onClick={() => {
          setStale(false);
          if (call === 'update') setRevising(true);
          else setOpen(open === call ? null : call);
        }}
        disabled={busy !== null && busy !== call}
        loading={busy === call}
        aria-expanded={call === 'update' ? undefined : open === call}
        data-testid={`offer-action-${call}`}
      >
        {label}
      </Button>
    );
    if (call === 'update') return <Box key={call}>{trigger}</Box>;
    return (
      <Popover
        key={call}
        opened={open === call}
        onChange={(o) => !o && busy === null && setOpen(null)}
        position="bottom-start"
        width={320}
        withArrow
        shadow="md"
        trapFocus
        returnFocus
      >
        <Popover.Target>{trigger}</Popover.Target>
        <Popover.Dropdown role="dialog" aria-label={t(text.label)} data-testid={`offer-confirm-${call}`} maw="calc(100vw - 24px)">
          <Stack gap="sm">
            <Text size="sm">{call === 'pay' ? t('OFFERS.PAY_TEXT', { amount: price }) : t(text.confirm)}</Text>
            {call === 'choose' || call === 'pay' ? extra(call) : null}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => setOpen(null)} disabled={busy !== null} data-testid="confirm-no">
                {t('OFFERS.CANCEL')}
              </Button>
              <Button
                size="xs"
                color={text.danger ? 'red' : undefined}
                onClick={() => void confirm(call)}
                loading={busy === call}
                data-testid={call === 'choose' ? 'offer-choose-confirm' : call === 'pay' ? 'offer-pay-confirm' : 'confirm-yes'}
              >
                {label}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    );
  };

  const endings = guide.calls.filter((c) => ACTION_TEXT[c].danger);
  return (
    <Stack gap="sm" data-testid="offer-actions" data-busy={busy ?? ''}>
      {conflict || stale ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('OFFERS.CONFLICT_TITLE')} role="alert" data-testid="offer-conflict">
          <Text size="sm">{conflict ?? t('JOB_OFFER.ILLEGAL_TRANSITION')}</Text>
          <Text size="sm" c="dimmed">
            {t('OFFERS.CONFLICT_REFRESHED')}
          </Text>
        </Alert>
      ) : null}
      <OfferGuideText guide={guide} />
      {forward.length ? (
        <Group gap="sm" role="group" aria-label={t('OFFERS.ACTIONS')}>
          {forward.map(button)}
        </Group>
      ) : null}
      {endings.length ? (
        <Stack gap={4}>
          {forward.length ? null : (
            <Text size="xs" c="dimmed" id={`offer-also-${offer.code}`}>
              {t('OFFERS.GUIDE.ALSO')}
            </Text>
          )}
          <Group gap="sm" role="group" aria-label={forward.length ? t('OFFERS.ACTIONS') : t('OFFERS.GUIDE.ALSO')}>
            {endings.map(button)}
          </Group>
        </Stack>
      ) : null}
      {moved !== null ? (
        <Text size="sm" c="green" role="status" data-testid="offer-moved">
          {t('OFFERS.MOVED', { status: t(offerStatusLook(moved).label) })}
        </Text>
      ) : null}

      <Modal opened={revising} onClose={() => setRevising(false)} title={t(ACTION_TEXT.update.label)} size="lg" data-testid="offer-revise-dialog">
        <OfferForm mode="revise" offer={offer} busy={busy === 'update'} onSubmit={(terms) => void handleRevise(terms)} onCancel={() => setRevising(false)} />
      </Modal>
    </Stack>
  );
}

/** The guide in words: the awaited move (yours or the other side's), what you can do after it, or that the offer is closed. */
function OfferGuideText({ guide }: { guide: OfferGuide }) {
  const { t } = useTranslation();
  if (!guide.awaited) {
    return (
      <Text size="sm" c="dimmed" data-testid="offer-waiting" data-yours="false">
        {t('OFFERS.GUIDE.CLOSED')}
      </Text>
    );
  }
  return (
    <Stack gap={2} data-testid="offer-guide">
      <Text size="sm" fw={guide.yours ? 600 : 500} data-testid="offer-waiting" data-yours={guide.yours}>
        {t(awaitedText(guide.awaited.call, guide.yours))}
      </Text>
      {guide.then.length ? (
        <Text size="sm" c="dimmed" data-testid="offer-then">
          {t('OFFERS.GUIDE.THEN', { actions: guide.then.map((c) => t(ACTION_TEXT[c].label)).join(', ') })}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The offer's status in the store right after a move (the move's answer updated it). */
function offerUiStatus(code: string): number | null {
  const entry = offerStore.byCode[code];
  return entry?.state === 'loaded' ? entry.offer.status : null;
}
