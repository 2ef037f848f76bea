import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LinkedProvider, userApi } from '@/api/user.api';
import { authErrorText } from './auth-error';

/** The own profile's identity providers: each with the address it gave, removable while another way in remains. */
export function LinkedProviders() {
  const { t } = useTranslation();
  const [linked, setLinked] = useState<LinkedProvider[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(() => {
    userApi
      .linkedProviders()
      .then(setLinked)
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);

  if (!linked.length) return null;

  const remove = async (name: string) => {
    setBusy(name);
    setError(null);
    try {
      await userApi.unlinkProvider(name);
      load();
    } catch (err) {
      setError(authErrorText(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder padding="lg" radius="md" data-testid="linked-providers">
      <Title order={4} mb="md">
        {t('AUTH.PROVIDER.LINKED_TITLE')}
      </Title>
      <Stack gap="xs">
        {linked.map((p) => (
          <Group key={p.name} justify="space-between" data-testid={`linked-provider-${p.name}`}>
            <Text>
              {p.label}
              {p.email ? ` (${p.email})` : ''}
            </Text>
            <Button size="xs" variant="default" color="red" loading={busy === p.name} onClick={() => void remove(p.name)} data-testid={`unlink-${p.name}`}>
              {t('AUTH.PROVIDER.UNLINK')}
            </Button>
          </Group>
        ))}
        {error && (
          <Alert color="red" variant="light" data-testid="linked-providers-error">
            {error}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
