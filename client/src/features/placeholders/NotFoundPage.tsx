import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { paths } from '@/routes/paths';

export function NotFoundPage() {
  const { t } = useTranslation();
  usePageHeader(t('NOT_FOUND.TITLE'));
  return (
    <Stack align="center" mt="xl" data-testid="not-found">
      <Title order={2}>404</Title>
      <Text c="dimmed">{t('NOT_FOUND.TEXT')}</Text>
      <Button component={Link} to={paths.dashboard} variant="light">
        {t('NOT_FOUND.HOME')}
      </Button>
    </Stack>
  );
}
