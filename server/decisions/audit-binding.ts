import type { FastifyRequest } from 'fastify';
import { callerOf } from '../auth/caller.ts';
import type { AuditInTransaction } from './service.ts';

/**
 * The one seam between decisions and notes and the audit trail: every change calls it inside its
 * transaction with the event (decisions.md action names). Until the trail exists it goes to the log.
 */
export function auditOf(request: FastifyRequest, action: string): AuditInTransaction {
  return (_transaction, event) => {
    request.log.info(
      {
        audit: {
          action,
          actor: callerOf(request).username,
          entityId: event.entityId,
          documentId: event.documentId ?? null,
        },
      },
      'audit event',
    );
    return Promise.resolve();
  };
}
