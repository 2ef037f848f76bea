import { Radio, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { notificationsApi } from '@/api/notifications.api';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { tk } from '@/i18n/i18n';
import { intlLocaleOf } from '@/i18n/languages';
import { chatStore } from '../chat.store';

/** The choices, each with how long it mutes (null: until turned back on). */
export const MUTE_CHOICES = [
  { value: 'off', ms: 0, label: tk('CHAT.MUTE_OFF') },
  { value: '1h', ms: 3600_000, label: tk('CHAT.MUTE_1H') },
  { value: '8h', ms: 8 * 3600_000, label: tk('CHAT.MUTE_8H') },
  { value: '1d', ms: 24 * 3600_000, label: tk('CHAT.MUTE_1D') },
  { value: 'forever', ms: null, label: tk('CHAT.MUTE_FOREVER') },
] as const;
type MuteChoice = (typeof MUTE_CHOICES)[number]['value'];

const choiceOf = (group: Pick<ChatGroup, 'muted' | 'mutedUntil'>): MuteChoice | '' => (!group.muted ? 'off' : group.mutedUntil ? '' : 'forever');

/** The chat's own notifications: on, snoozed for a while, or muted until turned back on; saved at once. */
export function ChatMuteSettings({ group }: { group: ChatGroup }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const [busy, setBusy] = useState(false);

  const choose = async (value: string) => {
    const choice = MUTE_CHOICES.find((c) => c.value === value);
    if (!choice) return;
    setBusy(true);
    try {
      const body =
        choice.value === 'off'
          ? { muted: false }
          : choice.ms === null
            ? { muted: true }
            : { muted: true, until: new Date(Date.now() + choice.ms).toISOString() };
      const state = await notificationsApi.muteChat(group.code, body);
      const stored = chatStore.groups[group.code];
      if (stored) Object.assign(stored, { muted: state.muted, mutedUntil: state.mutedUntil });
      notify.success(t('CHAT.NOTIFICATIONS_SAVED'));
    } catch {
      // the global handler has shown the error
    } finally {
      setBusy(false);
    }
  };

  const until = group.muted && group.mutedUntil ? new Date(group.mutedUntil).toLocaleString(intlLocaleOf(language)) : null;
  return (
    <Stack gap="xs" data-testid="chat-mute">
      <Title order={4}>{t('CHAT.NOTIFICATIONS')}</Title>
      {until ? (
        <Text size="sm" data-testid="chat-mute-until">
          {t('CHAT.SNOOZED_UNTIL', { time: until })}
        </Text>
      ) : null}
      <Radio.Group value={choiceOf(group)} onChange={(v) => void choose(v)}>
        <Stack gap={6}>
          {MUTE_CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={t(c.label)} disabled={busy} data-testid={`chat-mute-${c.value}`} />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}
