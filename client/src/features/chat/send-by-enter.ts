import { readStorage, writeStorage } from '@/features/preferences/preferences';

/** Spec section 4: the send-by-enter preference is kept in local storage (on unless turned off). */
export const SEND_BY_ENTER_KEY = 'chat.sendByEnter';

export const readSendByEnter = (): boolean => readStorage(SEND_BY_ENTER_KEY) !== 'false';
export const writeSendByEnter = (on: boolean): void => writeStorage(SEND_BY_ENTER_KEY, on ? 'true' : 'false');

/** With send-by-enter on, Enter without Shift sends (and IME composition never does). */
export const isSendKey = (event: { key: string; shiftKey: boolean; nativeEvent?: { isComposing?: boolean } }, sendByEnter: boolean): boolean =>
  sendByEnter && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent?.isComposing;
