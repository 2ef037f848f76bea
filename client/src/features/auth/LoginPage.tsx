import { Alert, Anchor, Button, Checkbox, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { fieldProps, touchAll } from '@/components/form/field-props';
import { combine, rules } from '@/components/form/form-messages';
import { login } from '@/features/session/session.actions';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, safeReturnPath } from '@/routes/paths';
import { authErrorText } from './auth-error';
import { ProviderButtons } from './ProviderButtons';

export function LoginPage() {
  const { t } = useTranslation();
  usePageHeader(t('AUTH.LOGIN.TITLE'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const after = safeReturnPath(params.get('after'));
  // Back from a provider whose e-mail is this account's: the password links that provider.
  const linkToken = params.get('link');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const form = useForm({
    initialValues: { email: params.get('email') ?? '', password: '', rememberMe: false },
    validateInputOnChange: true,
    validateInputOnBlur: true,
    validate: {
      email: combine(rules.required(), rules.email()),
      password: rules.required(),
    },
  });

  const handleSubmit = async (values: typeof form.values) => {
    setBusy(true);
    setError(null);
    try {
      const response = await login({ ...values, email: values.email.trim(), ...(after ? { returnUrl: after } : {}), ...(linkToken ? { linkToken } : {}) });
      navigate(after ?? safeReturnPath(response.redirectUrl) ?? paths.dashboard, { replace: true });
    } catch (err) {
      setError(authErrorText(err));
      setBusy(false);
    }
  };

  return (
    <Paper maw={420} mx="auto" mt="xl" p="xl" withBorder radius="md">
      <form onSubmit={form.onSubmit(handleSubmit, () => touchAll(form))} noValidate data-testid="login-form">
        <Stack>
          <Title order={2}>{t('AUTH.LOGIN.TITLE')}</Title>
          {linkToken && (
            <Alert color="blue" variant="light" data-testid="login-link-notice">
              {t('AUTH.PROVIDER.LINK_NOTICE')}
            </Alert>
          )}
          <TextInput label={t('AUTH.EMAIL')} type="email" autoComplete="email" {...fieldProps(form, 'email')} data-testid="login-email" />
          <PasswordInput label={t('AUTH.PASSWORD')} autoComplete="current-password" {...fieldProps(form, 'password')} data-testid="login-password" />
          <Checkbox label={t('AUTH.LOGIN.REMEMBER_ME')} {...form.getInputProps('rememberMe', { type: 'checkbox' })} />
          {error && (
            <Alert color="red" variant="light" data-testid="login-error">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} data-testid="login-submit">
            {t('AUTH.LOGIN.SUBMIT')}
          </Button>
          {!linkToken && <ProviderButtons after={after} />}
          <Text size="sm" ta="center">
            {t('AUTH.LOGIN.NO_ACCOUNT')}{' '}
            <Anchor component={Link} to={after ? `${paths.register}?after=${encodeURIComponent(after)}` : paths.register} data-testid="register-link">
              {t('AUTH.REGISTER.TITLE')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
