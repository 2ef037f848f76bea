import { type InstanceChanges, instanceApi } from '@/api/instance.api';
import { instanceStore } from './instance.store';

/** The instance chosen by this host; the defaults stay if the call fails. */
export async function loadInstance(fresh = false): Promise<void> {
  try {
    const instance = await instanceApi.current(fresh);
    instanceStore.current = { ...instanceStore.current, ...instance };
  } catch {
    // Branding is decoration: the app works with the default look.
  } finally {
    instanceStore.loaded = true;
  }
}

export async function saveInstance(changes: InstanceChanges): Promise<void> {
  const saved = await instanceApi.save(changes);
  instanceStore.current = { ...instanceStore.current, ...changes, ...(saved ?? {}) };
  instanceStore.stylesVersion = `saved-${Date.now()}`;
}
