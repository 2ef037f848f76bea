import { Button } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** 'N new messages ↓' over the bottom of the list while the reader is scrolled up and messages came in. */
export function JumpToLatestButton({ count, onJump }: { count: number; onJump: () => void }) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <Button
      size="xs"
      radius="xl"
      rightSection={<IconArrowDown size={14} aria-hidden />}
      onClick={onJump}
      style={{
        position: 'absolute',
        bottom: 'var(--mantine-spacing-xs)',
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 2,
        boxShadow: 'var(--mantine-shadow-md)',
      }}
      data-testid="chat-jump-latest"
      data-count={count}
    >
      {t('CHAT.NEW_BELOW', { count })}
    </Button>
  );
}
