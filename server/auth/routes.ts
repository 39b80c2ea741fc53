import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';

/** STUB (owned by the auth work): POST /api/gettoken, GET /api/tokenvalid. */
export function registerAuthRoutes(_app: FastifyInstance, _services: AppServices): void {}
