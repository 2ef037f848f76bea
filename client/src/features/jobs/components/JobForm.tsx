import { ActionIcon, Alert, Button, Card, Divider, Group, Radio, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visibleError } from '@/components/form/form-messages';
import { LANGUAGES } from '@/i18n/languages';
import {
  JOB_DESCRIPTION_MAX,
  JOB_TITLE_MAX,
  type JobFormValues,
  type RoleUsers,
  addVersion,
  fieldPaths,
  languageName,
  removeVersion,
  setDefaultVersion,
  uniqueTranslation,
  validateJobForm,
} from '../job-form';
import { notifyFailure } from '../notify-failure';
import { toLocalInput } from '@/components/format/dates';
import { RoleUsersEditor } from './RoleUsersEditor';

export interface JobFormProps {
  initialValues: JobFormValues;
  /** The users on each role when the form opened. Default: nobody anywhere. */
  initialRoles?: RoleUsers;
  /** The stored deadline as a local picker value: it may stay even when it has passed. Default: none. */
  storedDeadline?: string;
  submitLabel: string;
  onSubmit: (values: JobFormValues, roles: RoleUsers) => Promise<void>;
  onCancel: () => void;
}

const LANGUAGE_OPTIONS = LANGUAGES.map((l) => ({ value: l.code, label: languageName(l.code) }));
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The job translation form (spec section 5): a deadline in local time, one version per language (lang,
 * title, description; one of them the default), and the users on each role. A field's error shows once
 * the field is dirty or touched; a submit attempt touches them all.
 */
export function JobForm({ initialValues, initialRoles = {}, storedDeadline, submitLabel, onSubmit, onCancel }: JobFormProps) {
  const { t } = useTranslation();
  const form = useForm<JobFormValues>({ mode: 'controlled', initialValues });
  const [roles, setRoles] = useState<RoleUsers>(initialRoles);
  const [saving, setSaving] = useState(false);
  const values = form.values;
  // Recomputed on every render (cheap): messages follow the values and the current language.
  const errors = validateJobForm(values, { storedDeadline });

  const touch = (path: string) => form.setTouched((held) => ({ ...held, [path]: true }));
  const shown = (path: string) => visibleError({ error: errors[path], dirty: form.isDirty(path), touched: form.isTouched(path) });
  const input = (path: string) => {
    const props = form.getInputProps(path);
    return { ...props, error: shown(path), onBlur: () => touch(path) };
  };

  const repeated = uniqueTranslation(values.versions);
  const repeatedShown = values.versions.some((v, i) => repeated && v.lang === repeated.value && shown(`versions.${i}.lang`));
  const listError = form.isTouched('versions') ? errors.versions : undefined;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    form.setTouched(Object.fromEntries(fieldPaths(values).map((path) => [path, true])));
    if (Object.keys(errors).length > 0) {
      // After the errors render: the first invalid field takes the focus.
      setTimeout(() => document.querySelector<HTMLElement>('[data-testid="job-form"] [aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values, roles);
    } catch (err) {
      // 422: the one error handler showed each broken rule; anything else is named here.
      notifyFailure(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate data-testid="job-form">
      <Stack gap="lg">
        <TextInput
          type="datetime-local"
          label={t('JOBS.FORM.DEADLINE')}
          description={t('JOBS.FORM.DEADLINE_HINT', { zone: timeZone() })}
          {...input('deadline')}
          min={toLocalInput(new Date().toISOString())}
          maw={320}
          data-testid="job-form-deadline"
        />

        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Title order={3} fz="h4">
              {t('JOBS.FORM.VERSIONS')}
            </Title>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              disabled={values.versions.length >= LANGUAGES.length}
              onClick={() => form.setFieldValue('versions', addVersion(values))}
              data-testid="job-form-add-version"
            >
              {t('JOBS.FORM.ADD_VERSION')}
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {t('JOBS.FORM.VERSIONS_HINT')}
          </Text>
          {repeated && repeatedShown ? (
            <Alert color="red" icon={<IconAlertTriangle size={16} />} role="alert" data-testid="job-form-unique-translation">
              {t('JOBS.FORM.UNIQUE_TRANSLATION', { value: languageName(repeated.value), count: repeated.count })}
            </Alert>
          ) : null}
          {listError ? (
            <Text c="red" size="sm" role="alert">
              {listError}
            </Text>
          ) : null}
          {values.versions.map((version, i) => {
            const name = version.lang ? languageName(version.lang) : t('JOBS.FORM.NEW_VERSION');
            return (
              <Card key={form.key(`versions.${i}`)} withBorder radius="md" padding="md" data-testid="job-form-version" data-index={i}>
                <Stack gap="sm">
                  <Group justify="space-between" wrap="wrap" gap="xs" align="flex-end">
                    <Select
                      label={t('JOBS.FORM.LANG')}
                      data={LANGUAGE_OPTIONS}
                      allowDeselect={false}
                      required
                      {...input(`versions.${i}.lang`)}
                      style={{ flex: '1 1 200px' }}
                      data-testid="job-form-lang"
                    />
                    <Group gap="xs" wrap="nowrap">
                      <Radio
                        name="job-default-version"
                        label={t('JOBS.FORM.DEFAULT')}
                        checked={version.isDefault}
                        onChange={() => form.setFieldValue('versions', setDefaultVersion(values, i))}
                        aria-label={t('JOBS.FORM.DEFAULT_OF', { name })}
                        data-testid="job-form-default"
                      />
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        size="lg"
                        disabled={values.versions.length <= 1}
                        onClick={() => form.setFieldValue('versions', removeVersion(values, i))}
                        aria-label={t('JOBS.FORM.REMOVE_VERSION', { name })}
                        data-testid="job-form-remove-version"
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </Group>
                  <TextInput label={t('JOBS.FORM.TITLE')} required maxLength={JOB_TITLE_MAX} {...input(`versions.${i}.title`)} data-testid="job-form-title" />
                  <Textarea
                    label={t('JOBS.FORM.DESCRIPTION')}
                    required
                    autosize
                    minRows={3}
                    maxRows={12}
                    maxLength={JOB_DESCRIPTION_MAX}
                    {...input(`versions.${i}.description`)}
                    data-testid="job-form-description"
                  />
                </Stack>
              </Card>
            );
          })}
        </Stack>

        <Divider />
        <Stack gap="xs">
          <Title order={3} fz="h4">
            {t('JOBS.ROLES')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('JOBS.FORM.ROLES_HINT')}
          </Text>
          <RoleUsersEditor value={roles} onChange={setRoles} />
        </Stack>

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={saving} data-testid="job-form-cancel">
            {t('JOBS.FORM.CANCEL')}
          </Button>
          <Button type="submit" loading={saving} data-testid="job-form-save">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
