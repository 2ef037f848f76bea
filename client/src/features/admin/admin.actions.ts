import { instanceApi } from '@/api/instance.api';
import { adminStore } from './admin.store';

/** Reads the full instance for the settings form; a failure keeps the form on the public summary. */
export async function loadInstanceSettings(code: string): Promise<void> {
  // Read fresh on every visit: a copy from an earlier visit may predate a save.
  adminStore.settings = null;
  try {
    adminStore.settings = await instanceApi.byCode(code);
  } catch {
    // The form starts from the public summary the app already holds.
  }
}

/** Appoints a user of the instance as its owner; true when the server took it (the error handler shows why not). */
export async function appointOwner(instanceCode: string, userCode: string): Promise<boolean> {
  adminStore.appointing = true;
  try {
    await instanceApi.appointOwner(instanceCode, userCode);
    return true;
  } catch {
    return false;
  } finally {
    adminStore.appointing = false;
  }
}
