import { IconShieldCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { mountModerationIndicator, type ModerationIndicator } from './moderation-indicator';

/**
 * Shown in a chat a moderator is watching live: watching is never secret. The badge itself is drawn by
 * moderation-indicator.ts out of the tenant stylesheet's reach; here is only its slot beside the chat name.
 */
export function ModeratedBadge({ watched }: { watched: boolean }) {
  const { t } = useTranslation();
  const slot = useRef<HTMLSpanElement>(null);
  const [indicator, setIndicator] = useState<ModerationIndicator | null>(null);
  const name = t('MODERATION.MODERATED');
  const hint = t('MODERATION.MODERATED_HINT');

  useEffect(() => {
    if (!watched || !slot.current) return;
    const mounted = mountModerationIndicator(slot.current);
    setIndicator(mounted);
    return () => {
      mounted.destroy();
      setIndicator(null);
    };
  }, [watched]);

  useEffect(() => indicator?.label(name, hint), [indicator, name, hint]);

  if (!watched) return null;
  return (
    <span ref={slot} data-testid="chat-moderated-slot" aria-hidden>
      {indicator
        ? createPortal(
            <>
              <IconShieldCheck size={12} stroke={2.25} aria-hidden />
              {name}
            </>,
            indicator.content,
          )
        : null}
    </span>
  );
}
