import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Whether a job takes offers: green while it does, grey once the customer stopped. */
export function AcceptingBadge({ accepting }: { accepting: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={accepting ? 'green' : 'gray'} variant="light" data-testid="job-accepting" data-accepting={accepting}>
      {accepting ? t('JOBS.ACCEPTING') : t('JOBS.NOT_ACCEPTING')}
    </Badge>
  );
}
