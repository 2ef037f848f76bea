import '@testing-library/jest-dom';
import { initI18n } from '@/i18n/i18n';

// jsdom lacks what react-router and Mantine expect from a browser.
const util = jest.requireActual('util') as { TextEncoder: typeof TextEncoder; TextDecoder: typeof TextDecoder };
Object.assign(globalThis, { TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
Object.assign(window, { ResizeObserver: ResizeObserverStub });

window.HTMLElement.prototype.scrollIntoView = () => undefined;

const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

initI18n('eng');

afterEach(() => {
  window.localStorage.clear();
});
