import { setupServer } from 'msw/node';
import { defaultHandlers } from './handlers.ts';

/** MSW in Node for component tests; each test adds its own handlers with server.use(...). */
export const server = setupServer(...defaultHandlers);
