import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { instanceStore } from './instance.store';

export const INSTANCE_STYLES_ID = 'instance-styles';
export const INSTANCE_STYLES_URL = '/instance/styles.css';

/** Keeps the instance style sheet in step with the instance (the tab title: UnreadTitle). Renders nothing. */
export function InstanceBranding() {
  const { stylesVersion } = useSnapshot(instanceStore);

  useEffect(() => {
    let link = document.getElementById(INSTANCE_STYLES_ID) as HTMLLinkElement | null;
    if (!link) {
      link = document.createElement('link');
      link.id = INSTANCE_STYLES_ID;
      link.rel = 'stylesheet';
      document.head.appendChild(link);
    }
    link.href = stylesVersion ? `${INSTANCE_STYLES_URL}?v=${encodeURIComponent(stylesVersion)}` : INSTANCE_STYLES_URL;
  }, [stylesVersion]);

  return null;
}
