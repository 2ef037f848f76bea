import { Badge, Button, Group, Loader, Text } from '@mantine/core';
import { IconBriefcase, IconFileDollar } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { offerStatusLook } from '@/features/offers/offer-status';
import { loadOffer, offerStore } from '@/features/offers/offer.store';
import { toJob, toJobOffer } from '@/routes/paths';

/** Group types (server/src/contracts/chat.ts): job FAQ and job chats target a job code, job-offer chats an offer code. */
export const GROUP_TYPE = { User: 1, JobFaq: 2, Job: 3, JobOffer: 4 } as const;

export type InfoBarKind = 'offer' | 'job' | null;

export function infoBarKind(group: Pick<ChatGroup, 'type' | 'targetId'>): InfoBarKind {
  if (!group.targetId) return null;
  if (group.type === GROUP_TYPE.JobOffer) return 'offer';
  if (group.type === GROUP_TYPE.JobFaq || group.type === GROUP_TYPE.Job) return 'job';
  return null;
}

function Bar({ kind, children }: { kind: 'offer' | 'job'; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group
      px="md"
      py={6}
      gap="sm"
      wrap="nowrap"
      // The View button keeps its width; the text beside it gives way (and wraps on a phone).
      preventGrowOverflow={false}
      justify="space-between"
      bg="var(--mantine-color-default-hover)"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      role="region"
      aria-label={kind === 'offer' ? t('OFFER.INFO_BAR_OFFER') : t('OFFER.INFO_BAR_JOB')}
      data-testid="chat-info-bar"
      data-kind={kind}
    >
      {children}
    </Group>
  );
}

function OfferBar({ offerCode }: { offerCode: string }) {
  const { t } = useTranslation();
  const entry = useSnapshot(offerStore).byCode[offerCode];
  // Loaded once; again when a push made the store forget an offer it had found missing.
  const held = Boolean(entry);
  useEffect(() => {
    if (!held) void loadOffer(offerCode);
  }, [offerCode, held]);

  if (!entry || entry.state === 'loading') {
    return (
      <Bar kind="offer">
        <Group gap="xs">
          <IconFileDollar size={18} aria-hidden />
          <Text size="sm">{t('OFFER.OFFER')}</Text>
        </Group>
        <Loader size="xs" aria-label={t('OFFER.LOADING')} />
      </Bar>
    );
  }
  if (entry.state !== 'loaded') {
    return (
      <Bar kind="offer">
        <Group gap="xs">
          <IconFileDollar size={18} aria-hidden />
          <Text size="sm" c="dimmed" data-testid="chat-info-missing">
            {t('SHARED.JOB_OFFER.NOT_FOUND')}
          </Text>
        </Group>
      </Bar>
    );
  }
  const { offer } = entry;
  const look = offerStatusLook(offer.status);
  return (
    <Bar kind="offer">
      <Group gap="xs" wrap="wrap" miw={0} style={{ flex: 1, rowGap: 2 }} preventGrowOverflow={false}>
        <Group gap="xs" wrap="nowrap" miw={0} maw="100%" preventGrowOverflow={false}>
          <IconFileDollar size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" fw={600} truncate miw={0}>
            {offer.job?.title ? t('OFFER.OFFER_FOR', { title: offer.job.title }) : t('OFFER.OFFER')}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          {offer.price ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="chat-info-price">
              {offer.price.amount} {offer.price.currency}
            </Text>
          ) : null}
          <Badge color={look.color} variant="light" style={{ flexShrink: 0 }} data-testid="chat-info-status" data-status={offer.status}>
            {t(look.label)}
          </Badge>
        </Group>
      </Group>
      <Button
        component={Link}
        to={toJobOffer(offer.jobCode, offer.code)}
        size="compact-sm"
        variant="light"
        style={{ flexShrink: 0 }}
        data-testid="chat-info-view"
      >
        {t('OFFER.VIEW')}
      </Button>
    </Bar>
  );
}

/** The information bar of job and job-offer chats (spec section 2): what the chat is about and a View button. */
export function ChatInfoBar({ group }: { group: Pick<ChatGroup, 'type' | 'targetId'> }) {
  const { t } = useTranslation();
  const kind = infoBarKind(group);
  if (kind === 'offer') return <OfferBar offerCode={group.targetId as string} />;
  if (kind !== 'job') return null;
  return (
    <Bar kind="job">
      <Group gap="xs">
        <IconBriefcase size={18} aria-hidden />
        <Text size="sm" fw={600}>
          {group.type === GROUP_TYPE.JobFaq ? t('OFFER.JOB_FAQ') : t('OFFER.JOB')}
        </Text>
      </Group>
      <Button component={Link} to={toJob(group.targetId as string)} size="compact-sm" variant="light" style={{ flexShrink: 0 }} data-testid="chat-info-view">
        {t('OFFER.VIEW')}
      </Button>
    </Bar>
  );
}
