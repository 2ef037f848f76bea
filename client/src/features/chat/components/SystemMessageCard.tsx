import { Box, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconFileDollar, IconInfoCircle } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { MESSAGE_TYPE } from '@/api/chat-types';
import { JobOfferThumbnail } from '@/features/offers/components/JobOfferThumbnail';
import { formatDateTime } from '@/components/format/dates';
import { OfferStatusBadge } from '@/features/offers/components/OfferStatusBadge';
import { noteStatus } from '@/features/offers/offer-notes';
import { formatPriceWithLocal } from '@/features/offers/offer-format';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { tk } from '@/i18n/i18n';
import { intlLocaleOf } from '@/i18n/languages';
import { OFFER_NOTE_KEYS } from '@/i18n/messages';
import { formatMessageTime } from '../chat-logic';
import { chatStore } from '../chat.store';
import { GROUP_TYPE } from './ChatInfoBar';

export { MESSAGE_TYPE };

/**
 * Offer messages, the marketplace's offer notes (marked by the server: offerNote) and any message without an
 * author are shown as a card rather than a bubble.
 */
export const isSystemMessage = (message: Pick<ChatMessage, 'type' | 'userCode' | 'offerNote'>): boolean =>
  message.type === MESSAGE_TYPE.FinalJobOfferRequest ||
  message.type === MESSAGE_TYPE.JobOfferApproved ||
  message.userCode === null ||
  message.offerNote === true;

const KEY_LIKE = /^[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)+$/;

/**
 * The body of a system message: a translation key the client knows is translated; an unknown key is left
 * out (the card's title says what happened); plain text is shown as it is.
 */
export function systemMessageBody(text: string, t: TFunction, exists: (key: string) => boolean): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  if (KEY_LIKE.test(trimmed)) return exists(trimmed) ? t(trimmed) : null;
  return trimmed;
}

const TITLES: Record<number, string> = {
  [MESSAGE_TYPE.FinalJobOfferRequest]: tk('OFFER.CARD.FINAL_REQUESTED'),
  [MESSAGE_TYPE.JobOfferApproved]: tk('OFFER.CARD.APPROVED'),
};

/**
 * The title key of a system message's card (also the chat list's last-message line for it): an offer note is
 * titled by its own text (a key the client knows), so the title says what its text says.
 */
export const systemMessageTitle = (message: Pick<ChatMessage, 'type'> & Partial<Pick<ChatMessage, 'message' | 'offerNote'>>): string => {
  const key = message.offerNote ? message.message?.trim() : undefined;
  if (key && OFFER_NOTE_KEYS.includes(key as (typeof OFFER_NOTE_KEYS)[number])) return key;
  return TITLES[message.type] ?? tk('OFFER.CARD.SYSTEM');
};

/**
 * An offer card's offer: the job offer thumbnail (title, price, status, View), live; without its price and
 * status (`current` false) under a note, which shows its own event's.
 */
function OfferThumbnail({ groupCode, current = true }: { groupCode: string; current?: boolean }) {
  const group = useSnapshot(chatStore).groups[groupCode] as ChatGroup | undefined;
  const offerCode = group?.type === GROUP_TYPE.JobOffer ? group.targetId : null;
  if (!offerCode) return null;
  return (
    <Box mt={4} pt={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <JobOfferThumbnail offerCode={offerCode} compact current={current} testIds="chat-system-offer" />
    </Box>
  );
}

/** What an offer note's move did: the status it moved the offer to and the terms it set (price, deadline). */
function NoteEvent({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const status = noteStatus(message);
  const terms = message.offerNoteData?.terms;
  const money = terms ? formatPriceWithLocal(terms.price, terms.localPrice, language) : null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="chat-system-event">
      {status !== null ? <OfferStatusBadge status={status} size="sm" data-testid="chat-system-status" /> : null}
      {terms ? (
        <Text size="sm" data-testid="chat-system-terms">
          {[
            money?.price ? t('OFFER.CARD.PRICE', { price: money.local ? `${money.price} (${money.local})` : money.price }) : null,
            terms.deadline ? t('OFFER.CARD.DEADLINE', { deadline: formatDateTime(terms.deadline, intlLocaleOf(language)) }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * A system message: an icon, what happened, the text, and for offer messages a link to the offer. An offer note
 * (marked by the server) is titled by its text and shows its own event's status and terms, never the offer's now.
 */
export function SystemMessageCard({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const note = message.offerNote === true && !message.deleted;
  const offerType = message.type === MESSAGE_TYPE.FinalJobOfferRequest || message.type === MESSAGE_TYPE.JobOfferApproved;
  const title = systemMessageTitle(message);
  // A note titled by its own text needs no body repeating it.
  const titledByNote = note && title !== systemMessageTitle({ type: message.type });
  const body = message.deleted || titledByNote ? null : systemMessageBody(message.message, t, (key) => i18n.exists(key));
  const Icon = message.type === MESSAGE_TYPE.JobOfferApproved ? IconCircleCheck : offerType || note ? IconFileDollar : IconInfoCircle;
  const color = message.type === MESSAGE_TYPE.JobOfferApproved ? 'green' : offerType || note ? 'indigo' : 'gray';
  return (
    <Group justify="center" my="sm" data-testid="chat-system-message" data-code={message.code} data-seq={message.seq} data-type={message.type}>
      <Paper withBorder radius="md" px="md" py="xs" maw={480} w="100%" role="note" aria-label={t(title)}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon color={color} variant="light" radius="xl" aria-hidden>
            <Icon size={18} />
          </ThemeIcon>
          <Stack gap={2} miw={0} style={{ flex: 1 }}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} data-testid="chat-system-title">
                {t(title)}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatMessageTime(message.createdAt)}
              </Text>
            </Group>
            {message.deleted ? (
              <Text size="sm" fs="italic" c="dimmed" data-testid="chat-message-deleted">
                {t('CHAT.DELETED')}
              </Text>
            ) : null}
            {body ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="chat-system-text">
                {body}
              </Text>
            ) : null}
            {note ? <NoteEvent message={message} /> : null}
            {note || offerType ? <OfferThumbnail groupCode={message.groupCode} current={!note} /> : null}
          </Stack>
        </Group>
      </Paper>
    </Group>
  );
}
