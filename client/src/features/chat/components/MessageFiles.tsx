import { Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FileTile } from '@/components/file-preview/FileTile';

/** The files of a message as tiles (image thumbnail or file icon); a click opens the preview. Looked up in one batched call. */
export function MessageFiles({ codes, mine }: { codes: readonly string[]; mine: boolean }) {
  const { t } = useTranslation();
  if (!codes.length) return null;
  return (
    <Group gap={6} justify={mine ? 'flex-end' : 'flex-start'} role="list" aria-label={t('CHAT.FILES')} data-testid="chat-message-files">
      {codes.map((code) => (
        <div key={code} role="listitem">
          <FileTile code={code} />
        </div>
      ))}
    </Group>
  );
}
