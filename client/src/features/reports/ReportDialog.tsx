import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '@contracts/rest/reports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ApiError } from '@/api/api-error';
import { reportsApi } from '@/api/reports.api';
import { notify } from '@/components/notifications/notify';
import { REASON_LABELS } from './report-labels';
import { closeReport, reportDialogStore } from './report-dialog.store';

/** The one report dialog: a reason from the fixed list, an optional note, and what the moderators will see. */
export function ReportDialog() {
  const { t } = useTranslation();
  const { target, name } = useSnapshot(reportDialogStore);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const close = () => {
    closeReport();
    setReason(null);
    setNote('');
  };
  const handleSubmit = async () => {
    if (!target || !reason) return;
    setBusy(true);
    try {
      await reportsApi.create(target, reason, note);
      notify.success(t('REPORTS.SENT'));
      close();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        notify.info(t('REPORTS.ALREADY'));
        close();
      } else notify.error(t('REPORTS.FAILED'));
    } finally {
      setBusy(false);
    }
  };
  const aboutMessage = target !== null && 'messageCode' in target;
  return (
    <Modal opened={target !== null} onClose={close} title={aboutMessage ? t('REPORTS.TITLE_MESSAGE') : t('REPORTS.TITLE_PERSON', { name })} centered>
      <Stack gap="sm" data-testid="report-dialog">
        <Text size="sm" c="dimmed">
          {aboutMessage ? t('REPORTS.HINT_MESSAGE') : t('REPORTS.HINT_PERSON')}
        </Text>
        <Radio.Group label={t('REPORTS.REASON')} value={reason} onChange={(v) => setReason(v as ReportReason)} required>
          <Stack gap={6} mt={4}>
            {REPORT_REASONS.map((r) => (
              <Radio key={r} value={r} label={t(REASON_LABELS[r])} data-testid={`report-reason-${r}`} />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={t('REPORTS.NOTE')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={REPORT_NOTE_MAX}
          autosize
          minRows={2}
          maxRows={5}
          data-testid="report-note"
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('REPORTS.CANCEL')}
          </Button>
          <Button color="red" onClick={() => void handleSubmit()} disabled={!reason} loading={busy} data-testid="report-submit">
            {t('REPORTS.SUBMIT')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
