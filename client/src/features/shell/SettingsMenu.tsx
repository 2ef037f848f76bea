import { ActionIcon, Button, Popover, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { IconBell, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SUPPORTED_LANGUAGES, type LanguageCode, languageOf } from '@/i18n/languages';
import { effectiveTheme, preferencesStore, setLanguage, setTheme } from '@/features/preferences/preferences.store';
import type { ThemeName } from '@/features/preferences/preferences';
import { setTranslateMessages, translationPreference } from '@/features/chat/translation-preference';
import { translatesInto, translationStatus } from '@/features/chat/translation-status';
import { sessionStore } from '@/features/session/session.store';
import { paths } from '@/routes/paths';

/** Theme (Light or Dark), language, whether chat messages show in my language, and the way to the notification settings. */
export function SettingsMenu() {
  const { t } = useTranslation();
  const preferences = useSnapshot(preferencesStore);
  const translation = useSnapshot(translationPreference);
  const status = useSnapshot(translationStatus);
  const readerLang = useSnapshot(sessionStore).user?.lang;
  // No engine translates into my language (or none at all): the switch would change nothing, so say why.
  const available = translatesInto(status, readerLang);
  return (
    <Popover position="bottom-end" shadow="md" width={240}>
      <Popover.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('SHELL.SETTINGS')} data-testid="settings-button">
          <IconSettings size={20} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <div>
            <Text size="xs" fw={600} c="dimmed" mb={4}>
              {t('SHELL.THEME')}
            </Text>
            <SegmentedControl
              fullWidth
              data-testid="theme-switch"
              value={effectiveTheme(preferences)}
              onChange={(value) => setTheme(value as ThemeName)}
              data={[
                { value: 'light', label: t('SHELL.THEME_LIGHT') },
                { value: 'dark', label: t('SHELL.THEME_DARK') },
              ]}
            />
          </div>
          <div>
            <Text size="xs" fw={600} c="dimmed" mb={4}>
              {t('SHELL.LANGUAGE')}
            </Text>
            <SegmentedControl
              fullWidth
              data-testid="language-switch"
              value={preferences.language}
              onChange={(value) => setLanguage(value as LanguageCode)}
              data={SUPPORTED_LANGUAGES.map((code) => ({ value: code, label: languageOf(code).label }))}
            />
          </div>
          <Switch
            size="xs"
            label={t('SHELL.TRANSLATE_MESSAGES')}
            checked={translation.on && available}
            disabled={!available}
            description={available ? undefined : status.enabled ? t('SHELL.TRANSLATION_OFF_NO_LANGUAGE') : t('SHELL.TRANSLATION_OFF')}
            onChange={(e) => setTranslateMessages(e.currentTarget.checked)}
            data-testid="translate-messages-switch"
          />
          <Button
            component={Link}
            to={paths.notificationSettings}
            variant="light"
            leftSection={<IconBell size={16} />}
            data-testid="notification-settings-link"
          >
            {t('NOTIFICATIONS.TITLE')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
