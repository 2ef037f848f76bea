import type { InstanceUpdatedPayload } from '@contracts/socket-events';
import { instanceStore } from './instance.store';

/**
 * `instance:updated`: the shell takes the instance's new name, colours and logo at once, and fetches its style
 * sheet again when the push says it changed. A push about another instance than the one this host shows is
 * ignored. Answers whether it was applied.
 */
export function applyInstanceUpdate({ stylesVersion, ...instance }: InstanceUpdatedPayload): boolean {
  if (instance.code !== instanceStore.current.code) return false;
  instanceStore.current = { ...instanceStore.current, ...instance };
  if (stylesVersion !== instanceStore.stylesVersion) instanceStore.stylesVersion = stylesVersion;
  return true;
}
