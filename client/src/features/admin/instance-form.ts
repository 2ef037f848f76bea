import type { InstanceChanges } from '@/api/instance.api';
import { normaliseHex } from '@/app/theme';

export interface InstanceFormValues {
  name: string;
  /** '#rrggbb' in the form; sent without '#'. */
  color: string;
  accent: string;
  logoUrl: string;
  customCss: string;
}

/** Only what changed is sent (a field left out stays as it is on the server); colours lose their '#'. */
export function buildInstanceChanges(values: InstanceFormValues, initial: InstanceFormValues): InstanceChanges {
  const changes: InstanceChanges = {};
  if (values.name.trim() !== initial.name.trim()) changes.name = values.name.trim();
  const color = normaliseHex(values.color);
  if (color && color !== normaliseHex(initial.color)) changes.color = color;
  const accent = normaliseHex(values.accent);
  if (accent && accent !== normaliseHex(initial.accent)) changes.accent = accent;
  if (values.logoUrl.trim() !== initial.logoUrl.trim()) changes.logoUrl = values.logoUrl.trim() || null;
  if (values.customCss !== initial.customCss) changes.customCss = values.customCss;
  return changes;
}
