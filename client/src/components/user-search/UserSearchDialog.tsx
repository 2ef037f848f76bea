import { Button, Checkbox, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SELECTION_MAX_HEIGHT } from '@/components/select/selection';
import { useDebouncedSearch } from '@/components/select/useDebouncedSearch';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';

/** Spec section 5: the user search starts only for queries longer than 3 characters, 200 ms after typing stops. */
export const USER_SEARCH_LONGER_THAN = 3;
export const USER_SEARCH_DEBOUNCE_MS = 200;

/** What the dialog needs of a user (POST /api/user/search answers more). */
export interface UserSearchResult {
  code: string;
  name: string;
  surname: string;
  avatar?: { code: string | null; url: string | null } | null;
}

export interface UserSearchDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Called with the checked users when the user confirms. */
  onConfirm: (users: UserSearchResult[]) => void;
  /** Finds the users matching a query (the caller's feature knows where: people.actions searchPeople). */
  search: (query: string) => Promise<UserSearchResult[]>;
  /** Users that may not be picked (already in the chat, the caller). Default: none. */
  excludeCodes?: readonly string[];
  /** Default: "Find people". */
  title?: string;
  /** Default: "Add". */
  confirmLabel?: string;
}

const fullName = (u: UserSearchResult) => `${u.name} ${u.surname}`.trim();

/**
 * The full names more than one of these users has (ignoring case). Names are not unique, so such users show
 * their code too: the one thing about a person nobody else can copy (docs/security.md, "Display names").
 */
function sharedNames(users: readonly UserSearchResult[]): Set<string> {
  const seen = new Map<string, number>();
  for (const u of users) seen.set(fullName(u).toLowerCase(), (seen.get(fullName(u).toLowerCase()) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}

/** A query box and a checkbox list of matching users; the checked ones stay checked across queries. */
export function UserSearchDialog({ opened, onClose, onConfirm, search, excludeCodes = [], title, confirmLabel }: UserSearchDialogProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [checked, setChecked] = useState<Map<string, UserSearchResult>>(new Map());
  const results = useDebouncedSearch(opened ? query : '', search, { delayMs: USER_SEARCH_DEBOUNCE_MS, longerThan: USER_SEARCH_LONGER_THAN });
  const visible = results.items.filter((u) => !excludeCodes.includes(u.code));
  // Counted over every result: a namesake of someone already in the chat needs telling apart too.
  const namesakes = sharedNames(results.items);

  useEffect(() => {
    if (opened) return;
    setQuery('');
    setChecked(new Map());
  }, [opened]);

  const toggle = (user: UserSearchResult) =>
    setChecked((current) => {
      const next = new Map(current);
      if (next.has(user.code)) next.delete(user.code);
      else next.set(user.code, user);
      return next;
    });

  let body;
  if (results.tooShort)
    body = (
      <Text size="sm" c="dimmed">
        {t('USER_SEARCH.HINT')}
      </Text>
    );
  else if (results.loading) body = <Loader size="sm" data-testid="user-search-loading" />;
  else if (!visible.length)
    body = (
      <Text size="sm" c="dimmed">
        {t('SHARED.SELECT.NO_RESULTS')}
      </Text>
    );
  else
    body = (
      <ScrollArea.Autosize mah={SELECTION_MAX_HEIGHT}>
        <Stack gap="xs" role="group" aria-label={t('USER_SEARCH.RESULTS')}>
          {visible.map((user) => (
            <Checkbox
              key={user.code}
              checked={checked.has(user.code)}
              onChange={() => toggle(user)}
              data-testid={`user-search-result-${user.code}`}
              label={
                <Group gap="xs" wrap="nowrap">
                  <UserAvatar name={user.name} surname={user.surname} url={user.avatar?.url} size="sm" />
                  <Text size="sm">{fullName(user)}</Text>
                  {namesakes.has(fullName(user).toLowerCase()) ? (
                    <Text size="xs" c="dimmed" ff="monospace" data-testid="user-search-result-code">
                      {user.code}
                    </Text>
                  ) : null}
                </Group>
              }
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    );

  return (
    <Modal opened={opened} onClose={onClose} title={title ?? t('USER_SEARCH.TITLE')} data-testid="user-search-dialog">
      <Stack>
        <TextInput
          label={t('USER_SEARCH.QUERY')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          data-autofocus
          data-testid="user-search-query"
        />
        {body}
        {checked.size ? (
          <Text size="xs" c="dimmed" data-testid="user-search-checked">
            {[...checked.values()].map(fullName).join(', ')}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('USER_SEARCH.CANCEL')}
          </Button>
          <Button disabled={!checked.size} onClick={() => onConfirm([...checked.values()])} data-testid="user-search-confirm">
            {confirmLabel ?? t('USER_SEARCH.CONFIRM')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
