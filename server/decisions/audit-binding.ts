import type { FastifyRequest } from 'fastify';
import type { AuditInTransaction } from './service.ts';

/**
 * The one seam between decisions and notes and the audit trail: every change calls the binding
 * inside its transaction with its event (decisions.md action names); `actorOf` names the reviewer
 * (the account in embedded mode, the JWT's name through the gateway). Until the trail exists the
 * event goes to the request log, without free text.
 */
export function auditBinding(actorOf: (request: FastifyRequest) => string) {
  return (request: FastifyRequest, action: string): AuditInTransaction =>
    (_transaction, event) => {
      request.log.info(
        {
          audit: {
            action,
            actor: actorOf(request),
            entityId: event.entityId,
            documentId: event.documentId ?? null,
          },
        },
        'audit event',
      );
      return Promise.resolve();
    };
}
