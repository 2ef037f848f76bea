import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuthProvider, userApi } from '@/api/user.api';
import { authErrorText } from './auth-error';

interface Props {
  /** Where to land once signed in. */
  after: string | null;
  /** The user type an account made by this sign-in gets (the register page's choice). */
  type?: number;
}

/** A button per enabled identity provider; a click goes to the provider's sign-in page. */
export function ProviderButtons({ after, type }: Props) {
  const { t } = useTranslation();
  const [providers, setProviders] = useState<AuthProvider[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    userApi
      .authProviders()
      .then((list) => live && setProviders(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!providers.length) return null;

  const start = async (provider: string) => {
    setBusy(provider);
    setError(null);
    try {
      const { url } = await userApi.providerLoginUrl(provider, after, type);
      window.location.assign(url);
    } catch (err) {
      setError(authErrorText(err));
      setBusy(null);
    }
  };

  return (
    <Stack gap="xs" data-testid="auth-providers">
      <Divider label={t('AUTH.PROVIDER.OR')} labelPosition="center" />
      {providers.map((p) => (
        <Button key={p.name} variant="default" loading={busy === p.name} onClick={() => void start(p.name)} data-testid={`auth-provider-${p.name}`}>
          {t('AUTH.PROVIDER.CONTINUE_WITH', { provider: p.label })}
        </Button>
      ))}
      {error && (
        <Alert color="red" variant="light" data-testid="auth-provider-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
