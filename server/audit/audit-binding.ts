import type { FastifyRequest } from 'fastify';
import { requestPartOf } from './audit-trail.ts';
import type { AuditInTransaction } from './audit-trail.ts';

/**
 * The one seam between decisions and notes and the audit trail: every change appends its event
 * (decisions.md action names) inside its own transaction, so both commit or neither. The actor is
 * the account, or in gateway mode the reviewer bound to the caller's token.
 */
export function auditOf(request: FastifyRequest, action: string): AuditInTransaction {
  return (transaction, event) =>
    request.server.auditTrail.recordIn(transaction, {
      ...requestPartOf(request),
      action: event.action ?? action,
      entityId: event.entityId,
      documentId: event.documentId ?? null,
      detail: event.detail,
    });
}
