import { Alert, Anchor, Button, Stack, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Job } from '@/api/job.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths, toJob } from '@/routes/paths';
import { toLocalInput } from '@/components/format/dates';
import { type JobFormValues, type RoleUsers, emptyJobForm, jobToForm, rolesToUsers } from '../job-form';
import { loadJob, loadJobRoles, saveJob } from '../jobs.actions';
import { jobsStore } from '../jobs.store';
import { JobForm } from './JobForm';

/** /jobs/new: a customer posts a job. */
export function NewJobPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSnapshot(preferencesStore);
  const [initial] = useState(() => emptyJobForm(language));
  usePageHeader(t('JOBS.NEW_TITLE'), t('JOBS.NEW_SUBTITLE'));

  const handleSubmit = async (values: JobFormValues, roles: RoleUsers) => {
    const { job, rolesSaved } = await saveJob(null, values, { stored: {}, edited: roles }, language);
    notify.success(t('JOBS.POSTED'));
    if (!rolesSaved) notify.error(t('JOBS.ROLES_FAILED'));
    navigate(toJob(job.code), { replace: true });
  };

  return (
    <Stack gap="md" maw={860} data-testid="job-new-page">
      <Title order={2} fz="h3">
        {t('JOBS.NEW_TITLE')}
      </Title>
      <JobForm initialValues={initial} submitLabel={t('JOBS.FORM.POST')} onSubmit={handleSubmit} onCancel={() => navigate(paths.jobs)} />
    </Stack>
  );
}

function EditForm({ job }: { job: Job }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { language } = useSnapshot(preferencesStore);
  const roles = useSnapshot(jobsStore).roles[job.code];
  const [initial] = useState(() => jobToForm(job));
  const [rolesFailed, setRolesFailed] = useState(false);

  const loadRoles = useCallback(() => {
    setRolesFailed(false);
    loadJobRoles(job.code, language).catch(() => setRolesFailed(true));
  }, [job.code, language]);
  useEffect(loadRoles, [loadRoles]);

  // Without the stored role users the form cannot tell what changed, so it waits for them.
  if (rolesFailed)
    return (
      <Alert color="red" title={t('JOBS.LOAD_FAILED')}>
        <Button size="xs" variant="light" color="red" onClick={loadRoles}>
          {t('JOBS.RETRY')}
        </Button>
      </Alert>
    );
  if (!roles) return <Spinner />;
  const stored = rolesToUsers(roles as JobRoleList);
  const handleSubmit = async (values: JobFormValues, edited: RoleUsers) => {
    const { rolesSaved } = await saveJob(job.code, values, { stored, edited }, language, toLocalInput(job.deadline));
    notify.success(t('JOBS.SAVED'));
    if (!rolesSaved) notify.error(t('JOBS.ROLES_FAILED'));
    navigate(toJob(job.code), { replace: true });
  };
  return (
    <JobForm
      initialValues={initial}
      initialRoles={stored}
      storedDeadline={toLocalInput(job.deadline)}
      submitLabel={t('JOBS.FORM.SAVE')}
      onSubmit={handleSubmit}
      onCancel={() => navigate(toJob(job.code))}
    />
  );
}

type JobRoleList = Parameters<typeof rolesToUsers>[0];

/** /jobs/{jobId}?edit=1: the job's customer edits it; anyone else is told only the customer may. */
export function EditJobPage({ code }: { code: string }) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const entry = useSnapshot(jobsStore).entries[code];
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const job = entry?.state === 'loaded' ? (entry.job as Job) : null;
  usePageHeader(t('JOBS.EDIT_TITLE'), job?.title ?? '');

  useEffect(() => {
    void loadJob(code, language);
  }, [code, language]);

  let body;
  if (!entry || entry.state === 'loading') body = <Spinner />;
  else if (entry.state === 'missing') body = <Alert color="red">{t('JOB.NOT_FOUND')}</Alert>;
  else if (entry.state === 'failed') body = <Alert color="red">{t('JOBS.LOAD_FAILED')}</Alert>;
  else if (job && job.customerCode !== me)
    body = (
      <Alert color="orange" data-testid="job-edit-not-yours">
        {t('JOB.NOT_YOURS')}{' '}
        <Anchor component={Link} to={toJob(code)}>
          {t('JOBS.BACK_TO_JOB')}
        </Anchor>
      </Alert>
    );
  else if (job) body = <EditForm key={`${job.code}-${job.updatedAt}`} job={job} />;

  return (
    <Stack gap="md" maw={860} data-testid="job-edit-page">
      <Title order={2} fz="h3">
        {t('JOBS.EDIT_TITLE')}
      </Title>
      {body}
    </Stack>
  );
}
