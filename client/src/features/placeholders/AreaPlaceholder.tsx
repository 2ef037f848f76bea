import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { usePageHeader } from '@/features/shell/toolbar.store';

/** Jobs, messages and projects screens that later issues fill in: the route works, the screen is a notice. */
export function AreaPlaceholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const params = useParams();
  const detail = Object.values(params).filter(Boolean).join(' / ');
  const title = t(titleKey);
  usePageHeader(title, detail);
  return (
    <Paper p="xl" withBorder maw={640} mx="auto" mt="lg" data-testid="area-placeholder">
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconHourglassEmpty size={30} />
        </ThemeIcon>
        <Title order={3}>{title}</Title>
        {detail && (
          <Text c="dimmed" size="sm">
            {detail}
          </Text>
        )}
        <Text c="dimmed" ta="center">
          {t('PLACEHOLDER.COMING_SOON')}
        </Text>
      </Stack>
    </Paper>
  );
}
