import { SEND_BY_ENTER_KEY, isSendKey, readSendByEnter, writeSendByEnter } from './send-by-enter';

describe('send by enter', () => {
  it('is on by default and kept in local storage', () => {
    expect(readSendByEnter()).toBe(true);
    writeSendByEnter(false);
    expect(window.localStorage.getItem(SEND_BY_ENTER_KEY)).toBe('false');
    expect(readSendByEnter()).toBe(false);
  });

  it('sends on Enter without Shift, only when on', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false }, true)).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true }, true)).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false }, false)).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false }, true)).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, nativeEvent: { isComposing: true } }, true)).toBe(false);
  });
});
