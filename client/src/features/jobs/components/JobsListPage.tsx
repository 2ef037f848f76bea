import { Alert, Button, Center, Group, SegmentedControl, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBriefcase, IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import type { Job } from '@/api/job.api';
import { Spinner } from '@/components/loaders/loaders';
import { intlLocaleOf } from '@/i18n/languages';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { toNewJob } from '../job-links';
import { SEARCH_DEBOUNCE_MS, SEARCH_MAX, listView } from '../jobs-list';
import { listJobs, loadMoreJobs } from '../jobs.actions';
import { jobsStore } from '../jobs.store';
import { JobRow } from './JobRow';

/**
 * /jobs: the instance's jobs, newest first, in the reader's language; all or mine, a title search (kept in
 * the address, so going back finds the same list), more on request, and an invitation when there is none.
 */
export function JobsListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const mine = params.get('mine') === '1';
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const [debounced] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const { list, byCode } = useSnapshot(jobsStore);
  const { language } = useSnapshot(preferencesStore);
  const me = useSnapshot(sessionStore).user?.code ?? null;
  const locale = intlLocaleOf(language);
  usePageHeader(t('MENU.JOB_LIST'), mine ? t('JOBS.FILTER_MINE') : t('JOBS.SUBTITLE'));

  const setFilter = (next: { mine?: boolean; q?: string }) => {
    const nextParams = new URLSearchParams(params);
    const nextMine = next.mine ?? mine;
    const nextQ = (next.q ?? q).trim();
    if (nextMine) nextParams.set('mine', '1');
    else nextParams.delete('mine');
    if (nextQ) nextParams.set('q', nextQ);
    else nextParams.delete('q');
    setParams(nextParams, { replace: true });
  };

  useEffect(() => {
    if (debounced.trim() !== q.trim()) setFilter({ q: debounced });
    // Only settled typing changes the search; the address holds the filter.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on typing only, not when the address moves
  }, [debounced]);

  // The address changed by other means (the menu's "Job list", back): the box shows what is searched.
  useEffect(() => {
    if (q.trim() !== debounced.trim()) setTyped(q);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the address moves, not on typing
  }, [q]);

  useEffect(() => {
    void listJobs({ mine, q }, language);
  }, [mine, q, language]);

  // After "Show more jobs" the keyboard goes on at the first job it brought (the button may be gone).
  const shownBeforeMore = useRef<number | null>(null);
  useEffect(() => {
    const before = shownBeforeMore.current;
    if (before === null || list.loadingMore) return;
    shownBeforeMore.current = null;
    const code = list.codes[before];
    if (code) document.querySelector<HTMLElement>(`[data-code="${CSS.escape(code)}"] [data-testid="job-row-title"]`)?.focus();
  }, [list.codes, list.loadingMore]);
  const handleMore = () => {
    shownBeforeMore.current = list.codes.length;
    void loadMoreJobs(language);
  };

  const view = listView(list);
  const clearSearch = () => {
    setTyped('');
    setFilter({ q: '' });
  };

  return (
    <Stack gap="md" data-testid="jobs-page" data-view={view}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} fz="h3">
          {t('MENU.JOB_LIST')}
        </Title>
        <Button component={Link} to={toNewJob()} leftSection={<IconPlus size={16} aria-hidden />} data-testid="jobs-post">
          {t('JOBS.POST')}
        </Button>
      </Group>
      <Group wrap="wrap" gap="sm" align="flex-end" role="search" aria-label={t('JOBS.SEARCH_LABEL')}>
        <TextInput
          style={{ flex: '1 1 220px' }}
          value={typed}
          maxLength={SEARCH_MAX}
          onChange={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilter({ q: typed });
          }}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            typed ? (
              <Button variant="subtle" size="compact-xs" onClick={clearSearch} aria-label={t('JOBS.CLEAR_SEARCH')} p={2}>
                <IconX size={14} aria-hidden />
              </Button>
            ) : null
          }
          placeholder={t('JOBS.SEARCH_PLACEHOLDER')}
          aria-label={t('JOBS.SEARCH_LABEL')}
          data-testid="jobs-search"
        />
        <SegmentedControl
          value={mine ? 'mine' : 'all'}
          onChange={(value) => setFilter({ mine: value === 'mine' })}
          data={[
            { value: 'all', label: t('JOBS.FILTER_ALL') },
            { value: 'mine', label: t('JOBS.FILTER_MINE') },
          ]}
          aria-label={t('JOBS.FILTER_LABEL')}
          data-testid="jobs-filter"
        />
      </Group>

      {/* Screen readers hear what a search or filter found. */}
      <VisuallyHidden aria-live="polite" data-testid="jobs-announce">
        {view === 'jobs' ? t('JOBS.SHOWN_COUNT', { count: list.codes.length }) : view === 'no-match' || view === 'empty' ? t('JOBS.SHOWN_NONE') : ''}
      </VisuallyHidden>
      {view === 'loading' ? <Spinner /> : null}
      {view === 'failed' ? (
        <Alert color="red" title={t('JOBS.LOAD_FAILED')} data-testid="jobs-failed">
          <Button size="xs" variant="light" color="red" onClick={() => void listJobs({ mine, q }, language)}>
            {t('JOBS.RETRY')}
          </Button>
        </Alert>
      ) : null}
      {view === 'empty' ? (
        <Center py="xl" data-testid="jobs-empty">
          <Stack align="center" gap="xs">
            <IconBriefcase size={48} stroke={1.2} aria-hidden />
            <Text fw={600}>{t('JOBS.EMPTY_TITLE')}</Text>
            <Text c="dimmed" ta="center">
              {t('JOBS.EMPTY_TEXT')}
            </Text>
            <Button component={Link} to={toNewJob()} leftSection={<IconPlus size={16} aria-hidden />} data-testid="jobs-post-first">
              {t('JOBS.POST_FIRST')}
            </Button>
          </Stack>
        </Center>
      ) : null}
      {view === 'no-match' ? (
        <Center py="xl" data-testid="jobs-no-match">
          <Stack align="center" gap="xs">
            <Text c="dimmed" ta="center">
              {q.trim() ? t('JOBS.NO_MATCH', { q: q.trim() }) : t('JOBS.NO_MINE')}
            </Text>
            {q.trim() ? (
              <Button variant="default" onClick={clearSearch}>
                {t('JOBS.CLEAR_SEARCH')}
              </Button>
            ) : (
              <Button component={Link} to={toNewJob()} leftSection={<IconPlus size={16} aria-hidden />}>
                {t('JOBS.POST')}
              </Button>
            )}
          </Stack>
        </Center>
      ) : null}
      {view === 'jobs' ? (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('MENU.JOB_LIST')} data-testid="jobs-list">
          {list.codes.map((code) => {
            const job = byCode[code];
            return job ? <JobRow key={code} job={job as Job} mine={job.customerCode === me} locale={locale} /> : null;
          })}
        </Stack>
      ) : null}
      {view === 'jobs' && list.hasMore ? (
        <Center>
          <Button variant="default" loading={list.loadingMore} onClick={handleMore} data-testid="jobs-more">
            {t('JOBS.MORE')}
          </Button>
        </Center>
      ) : null}
    </Stack>
  );
}
