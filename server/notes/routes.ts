import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  newNoteSchema,
  noteListQuerySchema,
  notePageSchema,
  noteResponseSchema,
} from '../../contract/notes.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import { requireJsonBody } from '../http/json-body.ts';
import type { Db } from '../db/database.ts';
import { isForeignKeyViolation } from '../db/engine.ts';
import { idParamsSchema } from '../http/params.ts';
import { ApiError } from '../http/errors.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import type { AuditInTransaction } from '../audit/audit-trail.ts';
import { notesRepository } from './repository.ts';
import { addNote, notesPage } from './service.ts';

export const NOTES_ORDER_TEXT =
  'Newest first: the first page is the latest of the conversation; nextCursor (null on the last page) reaches older notes.';

const notFound = (id: string) => new ApiError(404, `No entity has the id ${id}.`);

/** Notes on any entity, embedded mode (docs/reviews-decisions.md). */
export function registerNoteRoutes(
  app: FastifyInstance,
  services: AppServices,
  auditOf: (request: FastifyRequest, action: string) => AuditInTransaction,
): void {
  const { db } = services;
  const notes = notesRepository(db, 'notes');

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/:id/notes',
      summary: "An entity's notes",
      description: `${NOTES_ORDER_TEXT} limit 1..200, default 50.`,
      tag: 'Notes',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      query: noteListQuerySchema,
      response: { status: 200, schema: notePageSchema, description: 'One page of notes' },
      errors: [400, 404],
    },
    async ({ params, query, reply }) => {
      if (!(await notes.entityExists(params.id))) throw notFound(params.id);
      const page = await notesPage(db, 'notes', params.id, query);
      await reply.code(200).send({
        code: 200,
        status: 'success',
        message: '',
        data: page.notes,
        nextCursor: page.nextCursor,
      });
      return undefined;
    },
  );

  void app.register((writes, _options, done) => {
    writes.addHook('onRequest', requireJsonBody);
    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/entities/:id/notes',
        summary: 'Add a note to an entity',
        description:
          'text: 1 to 5000 characters once trimmed. The author is the calling account; at is the server time.',
        tag: 'Notes',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: newNoteSchema,
        response: { status: 201, schema: noteResponseSchema, description: 'The note' },
        errors: [400, 404, 415],
        audit: {
          action: 'note.add',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      async ({ params, body, request }) => {
        if (!(await notes.entityExists(params.id))) throw notFound(params.id);
        const audit = auditOf(request, 'note.add');
        try {
          return await addNote(
            db,
            'notes',
            {
              entityId: params.id,
              author: callerOf(request).username,
              at: services.now().toISOString(),
              text: body.text,
            },
            (transaction: Db, note) =>
              audit(transaction, {
                entityId: params.id,
                detail: { noteId: note.id, length: note.text.length },
              }),
          );
        } catch (error) {
          // The entity was deleted between the check and the insert.
          if (isForeignKeyViolation(error)) throw notFound(params.id);
          throw error;
        }
      },
    );
    done();
  });
}
