import { Badge, Button, Card, Center, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { REPORT_ACTIONS, type ReportAction, type ReportStatus } from '@contracts/rest/reports';
import { IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ReportQueueItem, reportsApi } from '@/api/reports.api';
import { Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { formatMessageTime } from '@/features/chat/chat-logic';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { t as translate } from '@/i18n/i18n';
import { ACTION_LABELS, REASON_LABELS } from './report-labels';

const person = (p: { name: string; surname: string; code: string }) => `${p.name} ${p.surname}`.trim() || p.code;

const samePile = (a: ReportQueueItem, b: ReportQueueItem) =>
  b.messageCode ? a.groupCode === b.groupCode && a.messageCode === b.messageCode : !a.messageCode && a.reported.code === b.reported.code;

/** One report: what and who was reported, by whom, the message among its neighbours, and the moderator's actions. */
function ReportCard({
  report,
  onResolved,
  onUnsuspended,
}: {
  report: ReportQueueItem;
  onResolved: (r: ReportQueueItem) => void;
  onUnsuspended: (userCode: string) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ReportAction | 'unsuspend' | null>(null);
  const handleUnsuspend = async () => {
    setBusy('unsuspend');
    try {
      await reportsApi.unsuspend(report.reported.code);
      onUnsuspended(report.reported.code);
      notify.success(t('REPORTS.UNSUSPENDED', { name: person(report.reported) }));
    } catch {
      notify.error(t('REPORTS.UNSUSPEND_FAILED'));
    } finally {
      setBusy(null);
    }
  };
  const handleAction = async (action: ReportAction) => {
    setBusy(action);
    try {
      onResolved(await reportsApi.resolve(report.code, action));
      notify.success(t('REPORTS.RESOLVED'));
    } catch {
      notify.error(t('REPORTS.RESOLVE_FAILED'));
    } finally {
      setBusy(null);
    }
  };
  const actions = REPORT_ACTIONS.filter((a) => a !== 'delete' || (report.messageCode && !report.messageDeletedNow));
  return (
    <Card withBorder padding="md" radius="md" data-testid="report-card" data-code={report.code} data-status={report.status}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Badge color="red" variant="light">
              {t(REASON_LABELS[report.reason])}
            </Badge>
            <Text size="sm" fw={600}>
              {report.messageCode
                ? t('REPORTS.ABOUT_MESSAGE', { name: person(report.reported) })
                : t('REPORTS.ABOUT_PERSON', { name: person(report.reported) })}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            {formatMessageTime(report.createdAt)}
          </Text>
        </Group>
        <Text size="sm">
          {t('REPORTS.BY', { name: person(report.reporter) })}
          {report.note ? ` · “${report.note}”` : ''}
        </Text>
        {report.context.length ? (
          <Stack gap={2} p="xs" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-sm)' }} data-testid="report-context">
            {report.context.map((m) => (
              <Text
                key={m.code}
                size="sm"
                fw={m.code === report.messageCode ? 700 : 400}
                c={m.code === report.messageCode ? undefined : 'dimmed'}
                style={{ overflowWrap: 'anywhere' }}
                data-reported={m.code === report.messageCode || undefined}
              >
                <Text span size="xs" fw={600}>
                  {m.userName ?? t('REPORTS.SYSTEM')}:
                </Text>{' '}
                {m.deleted ? <em>{t('CHAT.DELETED')}</em> : m.offerNote ? translate(m.message) : m.message}
              </Text>
            ))}
          </Stack>
        ) : null}
        {report.reportedSuspendedUntil ? (
          <Group gap="xs" data-testid="report-suspension">
            <Badge color="red" variant="outline">
              {t('REPORTS.SUSPENDED_UNTIL', { date: formatMessageTime(report.reportedSuspendedUntil) })}
            </Badge>
            <Button
              size="compact-sm"
              variant="default"
              loading={busy === 'unsuspend'}
              disabled={busy !== null && busy !== 'unsuspend'}
              onClick={() => void handleUnsuspend()}
              data-testid="report-unsuspend"
            >
              {t('REPORTS.UNSUSPEND')}
            </Button>
          </Group>
        ) : null}
        {report.status === 'open' ? (
          <Group gap="xs">
            {actions.map((a) => (
              <Button
                key={a}
                size="compact-sm"
                variant={a === 'dismiss' ? 'default' : 'light'}
                color={a === 'suspend' || a === 'delete' ? 'red' : a === 'warn' ? 'orange' : undefined}
                loading={busy === a}
                disabled={busy !== null && busy !== a}
                onClick={() => void handleAction(a)}
                data-testid={`report-action-${a}`}
              >
                {t(ACTION_LABELS[a])}
              </Button>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="report-outcome">
            {t('REPORTS.DONE', { action: t(ACTION_LABELS[report.action as ReportAction]), name: report.resolvedBy ? person(report.resolvedBy) : '' })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** /admin/reports: the moderation queue of the moderator's scope, open reports oldest first, or the resolved ones. */
export function ReportsQueuePage() {
  const { t } = useTranslation();
  usePageHeader(t('REPORTS.QUEUE'), t('REPORTS.QUEUE_HINT'));
  const [status, setStatus] = useState<ReportStatus>('open');
  const [reports, setReports] = useState<ReportQueueItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    setFailed(false);
    try {
      setReports((await reportsApi.queue(status)).reports);
    } catch {
      setFailed(true);
    }
  }, [status]);
  useEffect(() => {
    setReports(null);
    void load();
  }, [load]);
  // The server closes the other open reports of the same message (or person) with it: the list shows them closed too.
  const handleResolved = (done: ReportQueueItem) =>
    setReports((list) =>
      (list ?? []).map((r) =>
        r.code === done.code
          ? done
          : r.status === 'open' && samePile(r, done)
            ? { ...r, status: done.status, action: done.action, resolvedAt: done.resolvedAt, resolvedBy: done.resolvedBy }
            : r.reported.code === done.reported.code
              ? { ...r, reportedSuspendedUntil: done.reportedSuspendedUntil }
              : r,
      ),
    );
  const handleUnsuspended = (userCode: string) =>
    setReports((list) => (list ?? []).map((r) => (r.reported.code === userCode ? { ...r, reportedSuspendedUntil: null } : r)));

  return (
    <Stack gap="md" maw={820} mx="auto" data-testid="reports-queue">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {t('REPORTS.QUEUE')}
        </Title>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={status}
            onChange={(v) => setStatus(v as ReportStatus)}
            data={[
              { value: 'open', label: t('REPORTS.OPEN') },
              { value: 'resolved', label: t('REPORTS.RESOLVED_LIST') },
            ]}
          />
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void load()}>
            {t('MODERATION.REFRESH')}
          </Button>
        </Group>
      </Group>
      {failed ? <Text c="dimmed">{t('REPORTS.QUEUE_FAILED')}</Text> : null}
      {!reports && !failed ? <Spinner /> : null}
      {reports && reports.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed" data-testid="reports-empty">
            {status === 'open' ? t('REPORTS.NONE_OPEN') : t('REPORTS.NONE_RESOLVED')}
          </Text>
        </Center>
      ) : null}
      {reports?.map((r) => (
        <ReportCard key={r.code} report={r} onResolved={handleResolved} onUnsuspended={handleUnsuspended} />
      ))}
    </Stack>
  );
}
