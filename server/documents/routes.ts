import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../services.ts';

/** STUB: owned by the documents work. */
export function registerDocumentRoutes(_app: FastifyInstance, _services: AppServices): void {}
