import { Alert, Anchor, Loader, Paper, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '@/api/api-error';
import { tk } from '@/i18n/i18n';
import { loginWithProvider } from '@/features/session/session.actions';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, safeReturnPath } from '@/routes/paths';
import { authErrorText } from './auth-error';

const LINK_NEEDS_PASSWORD = 'SHARED.AUTH_PROVIDER.LINK_NEEDS_PASSWORD';

/** The provider's answer as a message key: the person cancelled, or the provider refused. */
const providerErrorKey = (error: string) => (error === 'access_denied' ? tk('AUTH.PROVIDER.CANCELLED') : tk('AUTH.PROVIDER.REFUSED'));

/**
 * Where the identity provider sends the browser back (/auth/callback/{provider}?code&state): the server
 * exchanges the code once (the state is single-use, so a second render must not send it again).
 */
export function ProviderCallbackPage() {
  const { t } = useTranslation();
  usePageHeader(t('AUTH.LOGIN.TITLE'));
  const navigate = useNavigate();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    const iss = params.get('iss');
    const refused = params.get('error');
    if (refused || !code || !state) {
      setError(t(providerErrorKey(refused ?? 'invalid_request')));
      return;
    }
    loginWithProvider(provider, { code, state, ...(iss ? { iss } : {}) })
      .then((response) => navigate(safeReturnPath(response.redirectUrl) ?? paths.dashboard, { replace: true }))
      .catch((err: unknown) => {
        const data = err instanceof ApiError ? err.body?.data : undefined;
        if (err instanceof ApiError && err.key === LINK_NEEDS_PASSWORD && typeof data?.linkToken === 'string') {
          navigate(`${paths.auth}?${new URLSearchParams({ link: data.linkToken, email: String(data.email ?? '') })}`, { replace: true });
          return;
        }
        setError(authErrorText(err));
      });
  }, [navigate, params, provider, t]);

  return (
    <Paper maw={420} mx="auto" mt="xl" p="xl" withBorder radius="md">
      <Stack>
        <Title order={2}>{t('AUTH.LOGIN.TITLE')}</Title>
        {error ? (
          <>
            <Alert color="red" variant="light" data-testid="provider-callback-error">
              {error}
            </Alert>
            <Anchor component={Link} to={paths.auth} data-testid="provider-callback-back">
              {t('AUTH.PROVIDER.BACK')}
            </Anchor>
          </>
        ) : (
          <Stack align="center" data-testid="provider-callback-busy">
            <Loader />
            {t('AUTH.PROVIDER.SIGNING_IN')}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
