import type { FastifyPluginAsync } from 'fastify';
import {
  newNoteSchema,
  noteListQuerySchema,
  notePageSchema,
  noteResponseSchema,
} from '../../contract/notes.ts';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { isForeignKeyViolation } from '../db/engine.ts';
import { requireEntity, type EntitySource } from '../entities/entity-source.ts';
import { ApiError } from '../http/errors.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { idParamsSchema } from '../http/params.ts';
import { defineRoute } from '../http/route.ts';
import type { NotesTable } from './repository.ts';
import { addNote, notesPage } from './service.ts';

export const NOTES_ORDER_TEXT =
  'Newest first: the first page is the latest of the conversation; nextCursor (null on the last page) reaches older notes.';

export interface NotesPluginOptions {
  /** Who knows the entities: this database (embedded) or the identity service (gateway). */
  entities: EntitySource;
  db: Db;
  /** `notes` in embedded mode, `gateway_notes` in gateway mode (no foreign key to an entity). */
  table: NotesTable;
  now: () => Date;
}

/**
 * Notes on any entity (docs/reviews-decisions.md), the same routes in both modes: registered under
 * /api/v2 behind the caller's authentication, by app.ts (embedded) and gateway/routes.ts.
 */
export const notesPlugin: FastifyPluginAsync<NotesPluginOptions> = async (app, options) => {
  const { entities, db, table, now } = options;

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
    async ({ params, query, request, reply }) => {
      await requireEntity(entities, request, params.id);
      const page = await notesPage(db, table, params.id, query);
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

  // Its own context so that the JSON-only hook touches no other route.
  await app.register((writes, _options, done) => {
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
      async ({ params, body, request, audit }) => {
        await requireEntity(entities, request, params.id);
        try {
          return await addNote(
            db,
            table,
            {
              entityId: params.id,
              author: callerOf(request).username,
              at: now().toISOString(),
              text: body.text,
            },
            (transaction, note) =>
              audit.record({ detail: { noteId: note.id, length: note.text.length } }, transaction),
          );
        } catch (error) {
          // The entity was deleted between the check and the insert (embedded mode's foreign key).
          if (isForeignKeyViolation(error))
            throw new ApiError(404, `No entity has the id ${params.id}.`);
          throw error;
        }
      },
    );
    done();
  });
};
