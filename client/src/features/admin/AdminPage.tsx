import { Badge, Button, Card, ColorInput, Grid, Group, Image, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { normaliseHex } from '@/app/theme';
import { fieldProps, touchAll } from '@/components/form/field-props';
import { combine, rules } from '@/components/form/form-messages';
import { notify } from '@/components/notifications/notify';
import { saveInstance } from '@/features/instance/instance.actions';
import { MAIN_LOGO_URL } from '@/features/instance/InstanceLogo';
import { instanceStore } from '@/features/instance/instance.store';
import { Role } from '@/features/session/roles';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { loadInstanceSettings } from './admin.actions';
import { adminStore } from './admin.store';
import { buildInstanceChanges, type InstanceFormValues } from './instance-form';
import { InstanceOwnerCard } from './InstanceOwnerCard';
import { OfferTimersCard } from './OfferTimersCard';

const SWATCHES = ['#228be6', '#7950f2', '#12b886', '#fa5252', '#fd7e14', '#fab005', '#15aabf', '#be4bdb', '#495057'];

const hexColor = (message: string) => (value: unknown) => (normaliseHex(String(value ?? '')) ? null : message);

function Preview({ values }: { values: InstanceFormValues }) {
  const { t } = useTranslation();
  const color = `#${normaliseHex(values.color) ?? '228be6'}`;
  const accent = `#${normaliseHex(values.accent) ?? '7950f2'}`;
  const [logoFailed, setLogoFailed] = useState(false);
  useEffect(() => setLogoFailed(false), [values.logoUrl]);
  return (
    <Card withBorder padding={0} radius="md" data-testid="instance-preview">
      <Group p="sm" gap="sm" style={{ background: color, color: 'white' }}>
        {!logoFailed && <Image src={values.logoUrl || MAIN_LOGO_URL} h={28} w="auto" alt="" onError={() => setLogoFailed(true)} />}
        <Text fw={700} c="white" truncate>
          {values.name || t('ADMIN.NAME')}
        </Text>
      </Group>
      <Stack p="md" gap="sm">
        <Text size="sm" c="dimmed">
          {t('ADMIN.PREVIEW_TEXT')}
        </Text>
        <Group gap="xs">
          <Button color={color}>{t('ADMIN.PREVIEW_PRIMARY')}</Button>
          <Button color={accent} variant="light">
            {t('ADMIN.PREVIEW_ACCENT')}
          </Button>
          <Badge color={accent}>{t('MENU.STATE_BETA')}</Badge>
        </Group>
      </Stack>
    </Card>
  );
}

/** Instance customisation: name, colour and accent with pickers, logo, custom CSS, live preview. */
export function AdminPage() {
  const { t } = useTranslation();
  usePageHeader(t('ADMIN.TITLE'), t('ADMIN.SUBTITLE'));
  const { current } = useSnapshot(instanceStore);
  const { user } = useSnapshot(sessionStore);
  const [saving, setSaving] = useState(false);

  const form = useForm<InstanceFormValues>({
    initialValues: { name: current.name, color: `#${current.color}`, accent: `#${current.accent}`, logoUrl: current.logoUrl ?? '', customCss: '' },
    validateInputOnChange: true,
    validateInputOnBlur: true,
    validate: {
      name: combine(rules.required()),
      color: combine(rules.required(), hexColor(t('ADMIN.COLOR_INVALID'))),
      accent: combine(rules.required(), hexColor(t('ADMIN.COLOR_INVALID'))),
    },
  });

  useEffect(() => {
    if (current.code) void loadInstanceSettings(current.code);
  }, [current.code]);

  // The full instance (with its custom CSS) replaces the public summary once it arrives.
  const { settings: arrived } = useSnapshot(adminStore);
  useEffect(() => {
    // Read from the store itself: a render's snapshot is for rendering (its reads decide what re-renders).
    const settings = adminStore.settings;
    if (!settings || settings.code !== current.code) return;
    const values = {
      name: settings.name,
      color: `#${settings.color}`,
      accent: `#${settings.accent}`,
      logoUrl: settings.logoUrl ?? '',
      customCss: settings.customCss ?? '',
    };
    form.setInitialValues(values);
    form.setValues(values);
    form.resetDirty(values);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrived, current.code]);

  const handleSubmit = async (values: InstanceFormValues) => {
    const changes = buildInstanceChanges(values, form.getInitialValues());
    if (Object.keys(changes).length === 0) {
      notify.info(t('ADMIN.NOTHING_CHANGED'));
      return;
    }
    setSaving(true);
    try {
      await saveInstance(changes);
      form.setInitialValues(values);
      form.resetDirty(values);
      notify.success(t('ADMIN.SAVED'));
    } catch {
      // The error handler has shown why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={form.onSubmit(handleSubmit, () => touchAll(form))} noValidate data-testid="admin-form">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <Title order={3}>{t('ADMIN.TITLE')}</Title>
            <TextInput label={t('ADMIN.NAME')} maxLength={100} {...fieldProps(form, 'name')} data-testid="admin-name" />
            <Group grow align="flex-start">
              <ColorInput label={t('ADMIN.COLOR')} format="hex" swatches={SWATCHES} {...fieldProps(form, 'color')} data-testid="admin-color" />
              <ColorInput label={t('ADMIN.ACCENT')} format="hex" swatches={SWATCHES} {...fieldProps(form, 'accent')} data-testid="admin-accent" />
            </Group>
            <TextInput label={t('ADMIN.LOGO_URL')} description={t('ADMIN.LOGO_URL_HINT')} placeholder="https://…" {...fieldProps(form, 'logoUrl')} />
            <Textarea
              label={t('ADMIN.CUSTOM_CSS')}
              description={t('ADMIN.CUSTOM_CSS_HINT')}
              autosize
              minRows={6}
              maxRows={18}
              styles={{ input: { fontFamily: 'monospace' } }}
              {...fieldProps(form, 'customCss')}
            />
            <Group>
              <Button type="submit" loading={saving} data-testid="admin-save">
                {t('ADMIN.SAVE')}
              </Button>
              <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                {t('ADMIN.RESET')}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Title order={4}>{t('ADMIN.PREVIEW')}</Title>
            <Preview values={form.getValues()} />
            {user?.role === Role.GlobalAdmin && current.code ? <InstanceOwnerCard instanceCode={current.code} /> : null}
            {(user?.role === Role.GlobalAdmin || user?.role === Role.InstanceAdmin) && current.code ? <OfferTimersCard instanceCode={current.code} /> : null}
          </Stack>
        </Grid.Col>
      </Grid>
    </form>
  );
}
