import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';

/** STUB: owned by the client-updates work. */
export function registerClientUpdateRoutes(_app: FastifyInstance, _services: AppServices): void {}
