import { http } from './http';
import type { AppConfigFile, Instance } from './types';

export interface InstanceChanges {
  name?: string;
  /** Without '#'. */
  color?: string;
  accent?: string;
  logoUrl?: string | null;
  customCss?: string;
}

export const instanceApi = {
  current: (fresh = false) => http.get<Instance>('/api/Instance/Current', { cache: !fresh }),
  /** The full instance (with its custom CSS) for its members and global users. */
  byCode: (code: string) => http.get<Instance>(`/api/Instance/${encodeURIComponent(code)}`, { cache: false }),
  save: (changes: InstanceChanges) => http.post<Instance>('/api/Instance', changes),
  /** Global admins: makes a user of the instance its owner and instance admin. */
  appointOwner: (code: string, userCode: string) => http.put<Instance>(`/api/Instance/${encodeURIComponent(code)}/owner`, { userCode }),
  config: () => http.get<AppConfigFile>('/assets/config.json'),
};
