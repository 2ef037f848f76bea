import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { translationStatus, translationUnavailable } from '@/features/chat/translation-status';
import { languageName } from '@/features/chat/translation-preference';
import type { LanguageCode } from '@/i18n/languages';

export interface MachineTranslationLineProps {
  /** the language of the version shown (what would be translated from) */
  from: string;
  /** the reader's language */
  to: LanguageCode;
  state: 'none' | 'loading' | 'shown' | 'original';
  onTranslate: () => void;
  onToggle: () => void;
}

/**
 * For a job without a version in the reader's language: "Translate", then "Machine translation from Spanish, not
 * the customer's text · Show original"; "Translation off" (with why) when no engine serves the pair.
 */
export function MachineTranslationLine({ from, to, state, onTranslate, onToggle }: MachineTranslationLineProps) {
  const { t } = useTranslation();
  const status = useSnapshot(translationStatus);
  const unavailable = translationUnavailable(status, from, to);
  const fromName = languageName(from, to) ?? from;
  if (state === 'shown' || state === 'original')
    return (
      <Group gap={4} wrap="wrap" data-testid="job-machine-translation" data-showing={state}>
        <IconLanguage size={14} aria-hidden />
        <Text size="xs" c="dimmed">
          {t('JOBS.MACHINE_TRANSLATED_FROM', { language: fromName })} ·
        </Text>
        <Anchor component="button" type="button" size="xs" onClick={onToggle} data-testid="job-machine-translation-toggle">
          {state === 'shown' ? t('JOBS.MACHINE_SHOW_ORIGINAL') : t('JOBS.MACHINE_SHOW_TRANSLATION')}
        </Anchor>
      </Group>
    );
  if (unavailable)
    return (
      <Text
        size="xs"
        c="dimmed"
        title={unavailable === 'off' ? t('CHAT.TRANSLATION_OFF_NO_ENGINE') : t('CHAT.TRANSLATION_OFF_NO_PAIR', { language: fromName })}
        data-testid="job-translation-off"
      >
        {t('JOBS.MACHINE_TRANSLATION_OFF')}
      </Text>
    );
  return (
    <Button
      size="compact-xs"
      variant="light"
      leftSection={<IconLanguage size={14} />}
      loading={state === 'loading'}
      onClick={onTranslate}
      style={{ alignSelf: 'flex-start' }}
      data-testid="job-translate"
    >
      {t('JOBS.MACHINE_TRANSLATE')}
    </Button>
  );
}
