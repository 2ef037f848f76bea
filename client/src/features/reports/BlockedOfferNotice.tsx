import { Alert } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { GROUP_TYPE } from '@/api/chat-types';
import { blocksStore } from './blocks.store';

/**
 * In an offer's chat with someone the reader blocked: the chat stays open and the other party's messages show,
 * because blocking never breaks a deal; reporting is the way to get a moderator involved.
 */
export function BlockedOfferNotice({ group, me }: { group: Pick<ChatGroup, 'type' | 'participants'>; me: string | null }) {
  const { t } = useTranslation();
  const { blocked } = useSnapshot(blocksStore);
  if (group.type !== GROUP_TYPE.JobOffer) return null;
  const other = group.participants?.find((p) => p.userCode !== me && blocked[p.userCode]);
  if (!other) return null;
  return (
    <Alert color="gray" variant="light" py={6} radius={0} icon={<IconBan size={16} />} data-testid="blocked-offer-notice">
      {t('REPORTS.OFFER_STAYS_OPEN', { name: `${other.user.name} ${other.user.surname}`.trim() })}
    </Alert>
  );
}
