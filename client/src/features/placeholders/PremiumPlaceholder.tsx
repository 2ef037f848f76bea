import { Badge, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageHeader } from '@/features/shell/toolbar.store';

/** The one placeholder every premium section shows (team, servers, documents, tools, tests, blog, courses). */
export function PremiumPlaceholder({ titleKey, setsHeader = true }: { titleKey: string; /** Default true. */ setsHeader?: boolean }) {
  const { t } = useTranslation();
  const title = t(titleKey);
  usePageHeader(title, t('PREMIUM.SUBTITLE'), setsHeader);
  return (
    <Paper p="xl" withBorder maw={640} mx="auto" mt="lg" data-testid="premium-placeholder">
      <Stack align="center" gap="sm">
        <ThemeIcon size={64} radius="xl" variant="gradient" gradient={{ from: 'brand', to: 'accent' }}>
          <IconCrown size={34} />
        </ThemeIcon>
        <Badge variant="light" color="accent">
          {t('PREMIUM.BADGE')}
        </Badge>
        <Title order={3}>{title}</Title>
        <Text c="dimmed" ta="center">
          {t('PREMIUM.DESCRIPTION')}
        </Text>
      </Stack>
    </Paper>
  );
}
