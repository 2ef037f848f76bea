import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBriefcase } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ChatGroup } from '@/api/chat.api';
import { GROUP_TYPE } from '@/api/chat-types';
import { JobOfferThumbnail } from '@/features/offers/components/JobOfferThumbnail';
import { OfferPartyRecord } from '@/features/reviews/components/OfferPartyRecord';
import { toJob } from '@/routes/paths';

export { GROUP_TYPE };

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
  return (
    <Bar kind="offer">
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <JobOfferThumbnail offerCode={offerCode} compact />
        <OfferPartyRecord offerCode={offerCode} />
      </Stack>
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
