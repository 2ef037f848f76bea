import { Badge, Button, CloseButton, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { type UserSearchResult, UserSearchDialog } from '@/components/user-search/UserSearchDialog';
import { searchPeople } from '@/features/people/people.actions';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { toMessageGroup } from '@/routes/paths';
import { canWrite, fullName } from '../chat-logic';
import { startChat } from '../chat-groups.actions';

/** /messages/new/create: pick people, optionally write the first message, then start (or reuse) the chat. */
export function NewChat() {
  const { t } = useTranslation();
  usePageHeader(t('CHAT.NEW'));
  const navigate = useNavigate();
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const [people, setPeople] = useState<UserSearchResult[]>([]);
  const [text, setText] = useState('');
  const [searching, setSearching] = useState(false);
  const [busy, setBusy] = useState(false);

  const add = (users: UserSearchResult[]) => {
    setPeople((current) => [...current, ...users.filter((u) => !current.some((c) => c.code === u.code))]);
    setSearching(false);
  };
  const start = async () => {
    setBusy(true);
    try {
      navigate(
        toMessageGroup(
          await startChat(
            people.map((p) => p.code),
            text,
          ),
        ),
      );
    } catch {
      setBusy(false); // the global handler has shown the error
    }
  };

  return (
    <Stack p="md" gap="md" style={{ flex: 1, minWidth: 0 }} maw={640} data-testid="chat-new">
      <Title order={3}>{t('CHAT.NEW')}</Title>
      <Stack gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {t('CHAT.PEOPLE')}
          </Text>
          <Button size="xs" variant="light" leftSection={<IconUserPlus size={14} />} onClick={() => setSearching(true)} data-testid="chat-new-pick">
            {t('CHAT.PICK_PEOPLE')}
          </Button>
        </Group>
        {people.length ? (
          <Group gap="xs" role="list" aria-label={t('CHAT.PEOPLE')}>
            {people.map((p) => (
              <Badge
                key={p.code}
                role="listitem"
                variant="light"
                size="lg"
                tt="none"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={t('CHAT.REMOVE_PERSON', { name: fullName(p) })}
                    onClick={() => setPeople((current) => current.filter((c) => c.code !== p.code))}
                  />
                }
                data-testid={`chat-new-person-${p.code}`}
              >
                {fullName(p)}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('CHAT.NOBODY_PICKED')}
          </Text>
        )}
      </Stack>
      <Textarea
        label={t('CHAT.FIRST_MESSAGE')}
        // The chat has no id yet: the field is enabled once it has more than one participant (spec section 4).
        disabled={!canWrite(null, people.length + 1)}
        autosize
        minRows={3}
        maxRows={8}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        data-testid="chat-new-message"
      />
      <Group justify="flex-end">
        <Button disabled={!people.length} loading={busy} onClick={() => void start()} data-testid="chat-new-start">
          {t('CHAT.START')}
        </Button>
      </Group>
      <UserSearchDialog
        opened={searching}
        onClose={() => setSearching(false)}
        onConfirm={add}
        search={searchPeople}
        excludeCodes={[...(me ? [me] : []), ...people.map((p) => p.code)]}
      />
    </Stack>
  );
}
