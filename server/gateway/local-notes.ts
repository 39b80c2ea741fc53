import { actorOf } from '../audit/audit-trail.ts';
import { ACTORS, requireRole } from '../auth/caller.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idSchema } from '../../contract/common.ts';
import { newNoteSchema, noteListQuerySchema } from '../../contract/notes.ts';
import { requireJsonBody } from '../http/json-body.ts';
import type { Db } from '../db/database.ts';
import type { AuditInTransaction } from '../audit/audit-trail.ts';
import { parseOrThrow } from '../http/errors.ts';
import { addNote, notesPage } from '../notes/service.ts';
import { guardLocalRoutes } from './local-route-guard.ts';

export interface LocalNotesOptions {
  db: Db;
  /** Throws 404 unless the identity service knows the entity (upstream-entity.ts). */
  requireEntity: (request: FastifyRequest, id: string) => Promise<void>;
  requireValidToken: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** Binds a request to the audit trail; the reviewer is the one named in the caller's JWT. */
  auditOf: (request: FastifyRequest, action: string) => AuditInTransaction;
  now: () => Date;
}

const entityParamsSchema = z.object({ id: idSchema });

/**
 * Notes, which the identity service has no endpoints for, kept in the gateway's own database
 * (`gateway_notes`) as client-update history is; the entity must exist upstream (404 otherwise).
 */
export function registerLocalNotes(app: FastifyInstance, options: LocalNotesOptions): void {
  const { db, requireEntity, requireValidToken, auditOf, now } = options;

  void app.register((scope, _options, done) => {
    guardLocalRoutes(scope, requireValidToken);

    scope.get('/api/v2/entities/:id/notes', async (request) => {
      const { id } = parseOrThrow(entityParamsSchema, request.params, 'path parameter');
      const query = parseOrThrow(noteListQuerySchema, request.query, 'parameter');
      await requireEntity(request, id);
      const page = await notesPage(db, 'gateway_notes', id, query);
      return {
        code: 200,
        status: 'success',
        message: '',
        data: page.notes,
        nextCursor: page.nextCursor,
      };
    });

    void scope.register((jsonScope, _jsonOptions, jsonDone) => {
      jsonScope.addHook('onRequest', requireJsonBody);
      jsonScope.post(
        '/api/v2/entities/:id/notes',
        { config: { refusalAction: 'note.add' } },
        async (request, reply) => {
          requireRole(request, ACTORS);
          const { id } = parseOrThrow(entityParamsSchema, request.params, 'path parameter');
          const body = parseOrThrow(newNoteSchema, request.body ?? {}, 'field');
          await requireEntity(request, id);
          const audit = auditOf(request, 'note.add');
          const note = await addNote(
            db,
            'gateway_notes',
            { entityId: id, author: actorOf(request), at: now().toISOString(), text: body.text },
            (transaction, added) =>
              audit(transaction, {
                entityId: id,
                detail: { noteId: added.id, length: added.text.length },
              }),
          );
          return reply.code(201).send({ code: 201, status: 'success', message: '', data: note });
        },
      );
      jsonDone();
    });
    done();
  });
}
