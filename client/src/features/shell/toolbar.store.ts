import { useEffect } from 'react';
import { proxy } from 'valtio';

export const toolbarStore = proxy({ header: '', subheader: '' });

/** Sets the toolbar's header and subheader while the calling page is shown. */
export function usePageHeader(header: string, subheader = '', enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    toolbarStore.header = header;
    toolbarStore.subheader = subheader;
  }, [header, subheader, enabled]);
  useEffect(() => {
    if (!enabled) return;
    return () => {
      toolbarStore.header = '';
      toolbarStore.subheader = '';
    };
  }, [enabled]);
}
