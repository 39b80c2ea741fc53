import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendPathNotFound } from '../http/errors.ts';
import { isSafePathParameter } from './forward-target.ts';

/**
 * The onRequest check of the gateway's own routes (notes, client updates, assignment): as on
 * forwarded routes, an unusable id is 404 before anything reaches the identity service, the
 * token check included; then the caller's token.
 */
export function guardLocalRoutes(
  scope: FastifyInstance,
  requireValidToken: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
): void {
  scope.addHook('onRequest', async (request, reply) => {
    const { id } = request.params as { id?: string };
    if (id !== undefined && !isSafePathParameter(id)) return sendPathNotFound(request, reply);
    await requireValidToken(request, reply);
    return undefined;
  });
}
