import { Group, Text } from '@mantine/core';
import { IconCircleCheck, IconWifiOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { type RealtimeStatus, realtimeStore } from './connection';

/** How long 'live again' stays after the socket came back. */
export const RECOVERED_SHOWN_MS = 4_000;

/** A first connection still not made after this long counts as down (a proxy that swallows websockets never errs). */
export const CONNECT_GRACE_MS = 5_000;

export type BannerState = 'hidden' | 'polling' | 'recovered';

/**
 * The banner for a status: polling while the socket is down or has not connected within the grace time;
 * 'recovered' for a while after it came back.
 */
export function bannerState(
  status: RealtimeStatus,
  wasDown: boolean,
  recoveredAt: number | null,
  now: number,
  connectingSince: number | null = null,
): BannerState {
  if (status === 'disconnected') return 'polling';
  if (status === 'connecting' && connectingSince !== null && now - connectingSince >= CONNECT_GRACE_MS) return 'polling';
  if (status === 'connected' && wasDown && recoveredAt !== null && now - recoveredAt < RECOVERED_SHOWN_MS) return 'recovered';
  return 'hidden';
}

/**
 * A small banner over the chat: while the socket is down the screens poll (messages every 5 s, unread
 * every 10 s) and say so; once the socket is back it says 'live again' briefly and goes by itself.
 */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const { status } = useSnapshot(realtimeStore);
  const wasDown = useRef(status === 'disconnected');
  const [recoveredAt, setRecoveredAt] = useState<number | null>(null);
  const [connectingSince, setConnectingSince] = useState<number | null>(null);
  const [, setTick] = useState(0);

  useEffect(() => {
    if (status !== 'connecting') return setConnectingSince(null);
    setConnectingSince(Date.now());
    const timer = setTimeout(() => {
      wasDown.current = true;
      setTick((n) => n + 1);
    }, CONNECT_GRACE_MS);
    return () => clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    if (status === 'disconnected') wasDown.current = true;
    if (status === 'connected' && wasDown.current) {
      setRecoveredAt(Date.now());
      const timer = setTimeout(() => {
        wasDown.current = false;
        setTick((n) => n + 1);
      }, RECOVERED_SHOWN_MS);
      return () => clearTimeout(timer);
    }
  }, [status]);

  const state = bannerState(status, wasDown.current, recoveredAt, Date.now(), connectingSince);
  return (
    <div role="status" aria-live="polite" data-testid="realtime-banner" data-state={state}>
      {state === 'hidden' ? null : (
        <Group gap="xs" px="md" py={4} wrap="nowrap" bg={state === 'polling' ? 'var(--mantine-color-yellow-light)' : 'var(--mantine-color-green-light)'}>
          {state === 'polling' ? <IconWifiOff size={16} aria-hidden /> : <IconCircleCheck size={16} aria-hidden />}
          <Text size="xs">{state === 'polling' ? t('REALTIME.POLLING') : t('REALTIME.RECOVERED')}</Text>
        </Group>
      )}
    </div>
  );
}
