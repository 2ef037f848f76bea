import { Alert, Anchor, Button, Group, Paper, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { USER_TYPE } from '@/api/user-types';
import { fieldProps, touchAll } from '@/components/form/field-props';
import { combine, rules } from '@/components/form/form-messages';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { register } from '@/features/session/session.actions';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, safeReturnPath } from '@/routes/paths';
import { authErrorText } from './auth-error';
import { ProviderButtons } from './ProviderButtons';

export const PASSWORD_MIN_LENGTH = 8;

export function RegisterPage() {
  const { t } = useTranslation();
  usePageHeader(t('AUTH.REGISTER.TITLE'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const after = safeReturnPath(params.get('after'));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const form = useForm({
    initialValues: { name: '', surname: '', email: '', password: '', type: String(USER_TYPE.Personal) },
    validateInputOnChange: true,
    validateInputOnBlur: true,
    validate: {
      name: rules.required(),
      email: combine(rules.required(), rules.email()),
      password: combine(rules.required(), rules.minLength(PASSWORD_MIN_LENGTH)),
    },
  });

  const handleSubmit = async (values: typeof form.values) => {
    setBusy(true);
    setError(null);
    try {
      const response = await register(
        {
          email: values.email.trim(),
          password: values.password,
          name: values.name.trim(),
          surname: values.surname.trim(),
          type: Number(values.type),
          lang: preferencesStore.language,
        },
        after ?? undefined,
      );
      navigate(after ?? safeReturnPath(response.redirectUrl) ?? paths.dashboard, { replace: true });
    } catch (err) {
      setError(authErrorText(err));
      setBusy(false);
    }
  };

  return (
    <Paper maw={480} mx="auto" mt="xl" p="xl" withBorder radius="md">
      <form onSubmit={form.onSubmit(handleSubmit, () => touchAll(form))} noValidate data-testid="register-form">
        <Stack>
          <Title order={2}>{t('AUTH.REGISTER.TITLE')}</Title>
          <SegmentedControl
            {...form.getInputProps('type')}
            data={[
              { value: String(USER_TYPE.Personal), label: t('USER.TYPE_PERSONAL') },
              { value: String(USER_TYPE.Company), label: t('USER.TYPE_COMPANY') },
            ]}
          />
          <Group grow align="flex-start">
            <TextInput label={t('USER.NAME')} autoComplete="given-name" {...fieldProps(form, 'name')} data-testid="register-name" />
            <TextInput label={t('USER.SURNAME')} autoComplete="family-name" {...fieldProps(form, 'surname')} data-testid="register-surname" />
          </Group>
          <TextInput label={t('AUTH.EMAIL')} type="email" autoComplete="email" {...fieldProps(form, 'email')} data-testid="register-email" />
          <PasswordInput
            label={t('AUTH.PASSWORD')}
            description={t('AUTH.REGISTER.PASSWORD_HINT')}
            autoComplete="new-password"
            {...fieldProps(form, 'password')}
            data-testid="register-password"
          />
          {error && (
            <Alert color="red" variant="light" data-testid="register-error">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy} data-testid="register-submit">
            {t('AUTH.REGISTER.SUBMIT')}
          </Button>
          <ProviderButtons after={after} type={Number(form.values.type)} />
          <Text size="sm" ta="center">
            {t('AUTH.REGISTER.HAVE_ACCOUNT')}{' '}
            <Anchor component={Link} to={after ? `${paths.auth}?after=${encodeURIComponent(after)}` : paths.auth}>
              {t('AUTH.LOGIN.TITLE')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
