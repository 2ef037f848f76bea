import { Menu } from '@mantine/core';
import { IconBan, IconFlag } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { notify } from '@/components/notifications/notify';
import { blockUser, blocksStore, unblockUser } from './blocks.store';
import { openReport } from './report-dialog.store';

export interface SafetyItemsProps {
  userCode: string;
  /** The person's name, for the dialog and the notifications. */
  name: string;
  /** Set to report this message; without it the person is reported. */
  message?: { groupCode: string; code: string };
}

/** Report (the message, or the person) and block / unblock, as items of a Mantine menu. */
export function SafetyMenuItems({ userCode, name, message }: SafetyItemsProps) {
  const { t } = useTranslation();
  const blocked = Boolean(useSnapshot(blocksStore).blocked[userCode]);
  const handleBlock = async () => {
    try {
      if (blocked) await unblockUser(userCode);
      else await blockUser(userCode);
      notify.success(blocked ? t('REPORTS.UNBLOCKED', { name }) : t('REPORTS.BLOCKED', { name }));
    } catch {
      notify.error(t('REPORTS.FAILED'));
    }
  };
  return (
    <>
      <Menu.Divider />
      <Menu.Item
        leftSection={<IconFlag size={14} />}
        onClick={() => openReport(message ? { groupCode: message.groupCode, messageCode: message.code } : { userCode }, name)}
        data-testid={message ? 'report-message' : 'report-person'}
      >
        {message ? t('REPORTS.REPORT_MESSAGE') : t('REPORTS.REPORT_PERSON')}
      </Menu.Item>
      <Menu.Item color={blocked ? undefined : 'red'} leftSection={<IconBan size={14} />} onClick={() => void handleBlock()} data-testid="block-person">
        {blocked ? t('REPORTS.UNBLOCK', { name }) : t('REPORTS.BLOCK', { name })}
      </Menu.Item>
    </>
  );
}
