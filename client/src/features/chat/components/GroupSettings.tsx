import { Button, Center, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { sessionStore } from '@/features/session/session.store';
import { paths, toMessageGroup } from '@/routes/paths';
import { canLeave } from '../chat-logic';
import { ChatMuteSettings } from './ChatMuteSettings';
import { leaveGroup, refreshGroup, saveGroupSettings } from '../chat-groups.actions';
import { chatStore } from '../chat.store';

/** Server limits (PatchGroupDto). */
export const GROUP_NAME_MAX = 200;
export const GROUP_SUBTITLE_MAX = 300;

/** /messages/{groupId}/settings: the chat's name and subtitle (an emptied field clears it), its notifications, and leaving it. */
export function GroupSettings({ code }: { code: string }) {
  const { t } = useTranslation();
  usePageHeader(t('CHAT.SETTINGS'));
  const group = useSnapshot(chatStore).groups[code] as ChatGroup | undefined;
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const [form, setForm] = useState<{ name: string; subtitle: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    refreshGroup(code).catch(() => setFailed(true));
  }, [code]);
  useEffect(() => {
    if (group && !form) setForm({ name: group.name ?? '', subtitle: group.subtitle ?? '' });
  }, [group, form]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    try {
      await saveGroupSettings(code, form.name, form.subtitle);
      notify.success(t('CHAT.SETTINGS_SAVED'));
    } catch {
      // the global handler has shown the error
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    if (!(await notify.confirm(t('CHAT.LEAVE_CONFIRM'), { confirmLabel: t('CHAT.LEAVE_CHAT') }))) return;
    setBusy(true);
    try {
      await leaveGroup(code);
      notify.success(t('CHAT.LEFT'));
      navigate(paths.messages);
    } catch {
      // the global handler has shown the error
      setBusy(false);
    }
  };

  if (failed)
    return (
      <Center style={{ flex: 1 }}>
        <Text c="dimmed">{t('CHAT.NOT_FOUND')}</Text>
      </Center>
    );
  if (!form) return <Spinner />;
  return (
    <Stack component="form" onSubmit={save} p="md" gap="md" maw={640} style={{ flex: 1, minWidth: 0 }} data-testid="chat-settings">
      <Title order={3}>{t('CHAT.SETTINGS')}</Title>
      <TextInput
        label={t('CHAT.NAME')}
        description={t('CHAT.NAME_HINT')}
        maxLength={GROUP_NAME_MAX}
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
        data-testid="chat-settings-name"
      />
      <TextInput
        label={t('CHAT.SUBTITLE')}
        maxLength={GROUP_SUBTITLE_MAX}
        value={form.subtitle}
        onChange={(e) => setForm({ ...form, subtitle: e.currentTarget.value })}
        data-testid="chat-settings-subtitle"
      />
      <Group justify="flex-end">
        <Button variant="default" component={Link} to={toMessageGroup(code)}>
          {t('CHAT.BACK_TO_CHAT')}
        </Button>
        <Button type="submit" loading={busy} data-testid="chat-settings-save">
          {t('CHAT.SAVE')}
        </Button>
      </Group>
      {group ? (
        <>
          <Divider />
          <ChatMuteSettings group={group} />
        </>
      ) : null}
      {group && canLeave(group, me) ? (
        <>
          <Divider />
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm" c="dimmed">
              {t('CHAT.LEAVE_HINT')}
            </Text>
            <Button color="red" variant="light" onClick={() => void leave()} disabled={busy} data-testid="chat-settings-leave">
              {t('CHAT.LEAVE_CHAT')}
            </Button>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
