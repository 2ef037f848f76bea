import { Button, Group, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { User } from '@/api/types';
import { fieldProps, touchAll } from '@/components/form/field-props';
import { rules } from '@/components/form/form-messages';
import { notify } from '@/components/notifications/notify';
import { LANGUAGES } from '@/i18n/languages';
import { loadTimezones, saveProfile } from './profile.actions';
import { profileStore } from './profile.store';

const COUNTRY = /^[A-Za-z]{2}$/;

/** Edits the session user's own profile with PATCH /api/me. */
export function ProfileEditForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const { t } = useTranslation();
  const { timezones } = useSnapshot(profileStore);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    initialValues: {
      name: user.name,
      surname: user.surname,
      country: user.country ?? '',
      lang: user.lang,
      timezone: user.timezone?.name ?? '',
      gravatar: user.avatar?.code === 'gravatar',
    },
    validateInputOnChange: true,
    validateInputOnBlur: true,
    validate: {
      name: rules.required(),
      country: (value: string) => (value && !COUNTRY.test(value) ? t('PROFILE.COUNTRY_INVALID') : null),
    },
  });

  useEffect(() => {
    void loadTimezones();
  }, []);

  const handleSubmit = async (values: typeof form.values) => {
    setSaving(true);
    const updated = await saveProfile({
      name: values.name.trim(),
      surname: values.surname.trim(),
      country: values.country ? values.country.toUpperCase() : null,
      lang: values.lang,
      ...(values.timezone ? { timezone: values.timezone } : {}),
      gravatar: values.gravatar,
    });
    setSaving(false);
    if (!updated) return;
    form.resetDirty();
    notify.success(t('PROFILE.SAVED'));
    onSaved(updated);
  };

  return (
    <form onSubmit={form.onSubmit(handleSubmit, () => touchAll(form))} noValidate data-testid="profile-form">
      <Stack>
        <Group grow align="flex-start">
          <TextInput label={t('USER.NAME')} maxLength={100} {...fieldProps(form, 'name')} />
          <TextInput label={t('USER.SURNAME')} maxLength={100} {...fieldProps(form, 'surname')} />
        </Group>
        <Group grow align="flex-start">
          <TextInput label={t('USER.COUNTRY')} placeholder="PL" maxLength={2} {...fieldProps(form, 'country')} />
          <Select
            label={t('USER.LANGUAGE')}
            data={LANGUAGES.map((l) => ({ value: l.code, label: l.label }))}
            allowDeselect={false}
            {...form.getInputProps('lang')}
          />
        </Group>
        <Select
          label={t('USER.TIMEZONE')}
          searchable
          nothingFoundMessage={t('SHARED.SELECT.NO_RESULTS')}
          placeholder={t('SHARED.SELECT.TYPE_TO_FILTER')}
          data={timezones.map((z) => ({ value: z.name, label: `${z.name} (${z.abbr})` }))}
          {...form.getInputProps('timezone')}
          maxDropdownHeight="30vh"
        />
        <Switch
          label={t('PROFILE.GRAVATAR')}
          description={t('PROFILE.GRAVATAR_HINT')}
          {...form.getInputProps('gravatar', { type: 'checkbox' })}
          data-testid="profile-gravatar"
        />
        <Group>
          <Button type="submit" loading={saving} disabled={!form.isDirty()} data-testid="profile-save">
            {t('PROFILE.SAVE')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
