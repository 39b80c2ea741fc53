import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';

/** STUB: owned by the entities work. */
export function registerEntityRoutes(_app: FastifyInstance, _services: AppServices): void {}
