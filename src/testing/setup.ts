import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './msw-server.ts';

// findBy* waits up to 5 s: on two shared cores a first render with lazy chunks can take over 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these browser APIs that Mantine uses.
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
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView = () => undefined;
window.HTMLElement.prototype.scrollTo = () => undefined;
if (!('createObjectURL' in URL))
  Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => undefined });

// A React error logged during a test is a failure, not noise.
// eslint-disable-next-line no-console -- the spy below must still print what React said
const originalError = console.error;
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    originalError(...args);
    throw new Error(`console.error during test: ${args.map(String).join(' ')}`);
  });
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  sessionStorage.clear();
});
afterAll(() => {
  server.close();
});
