import { Box, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconFileDollar, IconInfoCircle } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { MESSAGE_TYPE } from '@/api/chat-types';
import { JobOfferThumbnail } from '@/features/offers/components/JobOfferThumbnail';
import { tk } from '@/i18n/i18n';
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

/** The title key of a system message's card (also the chat list's last-message line for it). */
export const systemMessageTitle = (message: Pick<ChatMessage, 'type'>): string => TITLES[message.type] ?? tk('OFFER.CARD.SYSTEM');

/** An offer card's offer: the job offer thumbnail (title, price, status, View), live. */
function OfferThumbnail({ groupCode }: { groupCode: string }) {
  const group = useSnapshot(chatStore).groups[groupCode] as ChatGroup | undefined;
  const offerCode = group?.type === GROUP_TYPE.JobOffer ? group.targetId : null;
  if (!offerCode) return null;
  return (
    <Box mt={4} pt={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <JobOfferThumbnail offerCode={offerCode} compact testIds="chat-system-offer" />
    </Box>
  );
}

/** A system message: an icon, what happened, the text, and for offer messages a link to the offer. */
export function SystemMessageCard({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const offerType = message.type === MESSAGE_TYPE.FinalJobOfferRequest || message.type === MESSAGE_TYPE.JobOfferApproved;
  const title = systemMessageTitle(message);
  const body = message.deleted ? null : systemMessageBody(message.message, t, (key) => i18n.exists(key));
  const Icon = message.type === MESSAGE_TYPE.JobOfferApproved ? IconCircleCheck : offerType ? IconFileDollar : IconInfoCircle;
  const color = message.type === MESSAGE_TYPE.JobOfferApproved ? 'green' : offerType ? 'indigo' : 'gray';
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
            {offerType ? <OfferThumbnail groupCode={message.groupCode} /> : null}
          </Stack>
        </Group>
      </Paper>
    </Group>
  );
}
