import { Image } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { instanceStore } from './instance.store';

export const MAIN_LOGO_URL = '/assets/logo.svg';

/** The instance logo (else the main logo from the assets path), hidden when it fails to load. */
export function InstanceLogo({ size = 32, src }: { size?: number; src?: string | null }) {
  const { current } = useSnapshot(instanceStore);
  const url = (src ?? current.logoUrl) || MAIN_LOGO_URL;
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [url]);
  if (failed) return null;
  return <Image src={url} alt={current.name} h={size} w="auto" fit="contain" onError={() => setFailed(true)} data-testid="instance-logo" />;
}
