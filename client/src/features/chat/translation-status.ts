import { proxy } from 'valtio';
import type { TranslationStatusResponse } from '@contracts/translation';
import { http } from '@/api/http';

/**
 * What the server says about machine translation (GET /api/translation): on or off, and the pairs its engines
 * serve. Asked once per login; until it answers (or when it fails) nothing is said either way.
 */
export const translationStatus = proxy<{ known: boolean } & TranslationStatusResponse>({ known: false, enabled: false, pairs: [] });

let asked: Promise<void> | null = null;

export function loadTranslationStatus(): Promise<void> {
  asked ??= http
    .get<TranslationStatusResponse>('/api/translation')
    .then((status) => {
      Object.assign(translationStatus, { known: true, enabled: status.enabled, pairs: status.pairs });
    })
    .catch(() => {
      asked = null;
    });
  return asked;
}

export function resetTranslationStatus(): void {
  asked = null;
  Object.assign(translationStatus, { known: false, enabled: false, pairs: [] });
}

/**
 * Why a reader in `to` gets no translation from `from`: 'off' (no engine at all), 'unsupported' (no engine
 * serves this pair), or null (one does, or the server has not said yet).
 */
export function translationUnavailable(
  status: { known: boolean; enabled: boolean; pairs: readonly { from: string; to: string }[] },
  from: string | null | undefined,
  to: string | null | undefined,
): 'off' | 'unsupported' | null {
  if (!status.known) return null;
  if (!status.enabled) return 'off';
  if (!from || !to || from === to) return null;
  return status.pairs.some((p) => p.from === from && p.to === to) ? null : 'unsupported';
}

/** Whether any engine translates into `to` (from any language): the setting is moot otherwise. */
export const translatesInto = (status: { known: boolean; enabled: boolean; pairs: readonly { from: string; to: string }[] }, to: string | null | undefined) =>
  !status.known || (status.enabled && status.pairs.some((p) => p.to === to));
