import { Readable } from 'node:stream';
import type { FastifyPluginCallback } from 'fastify';
import {
  auditEventPageSchema,
  auditLogQuerySchema,
  clientRecipientOf,
  entityAuditQuerySchema,
  type AuditEvent,
  type AuditFilter,
} from '../../contract/audit.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import { AUDITORS, READERS } from '../auth/caller.ts';
import type { Db } from '../db/database.ts';
import { idParamsSchema } from '../http/params.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { csvCell } from '../http/csv.ts';
import { defineRoute } from '../http/route.ts';
import { auditRepository, type AuditEventRow, type AuditPageQuery } from './repository.ts';

const TAG = 'Audit trail';
const CSV_ROWS_PER_READ = 1000;
const CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'action',
  'entityId',
  'documentId',
  'outcome',
  'requestId',
  'clientAddress',
  'detail',
] as const;

export function auditEventOf(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    entityId: row.entity_id,
    documentId: row.document_id,
    outcome: row.outcome,
    requestId: row.request_id,
    clientAddress: row.client_address,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  };
}

/** The cursor is the position of the last event of the page before. */
function cursorOf(seq: number): string {
  return encodeCursor([seq]);
}

function seqOfCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, ([seq, ...rest]) =>
    Number.isSafeInteger(seq) && (seq as number) >= 0 && rest.length === 0
      ? (seq as number)
      : undefined,
  );
}

async function pageOf(db: Db, query: AuditPageQuery) {
  const repository = auditRepository(db);
  const rows = await repository.page({ ...query, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  // Names of the page's entities and clients' recipients, read at once; one not held here stays null.
  const [names, actorNames] = await Promise.all([
    repository.entityNames([
      ...new Set(
        page.flatMap((row) =>
          [row.entity_id, clientRecipientOf(row.actor)].filter((id) => typeof id === 'string'),
        ),
      ),
    ]),
    accountsRepository(db).displayNames(page.map((row) => row.actor)),
  ]);
  return {
    code: 200,
    status: 'success' as const,
    message: '',
    data: page.map((row) => ({
      ...auditEventOf(row),
      actorName: actorNames.get(row.actor) ?? names.get(clientRecipientOf(row.actor) ?? '') ?? null,
      entityName: row.entity_id ? (names.get(row.entity_id) ?? null) : null,
    })),
    nextCursor: rows.length > query.limit && last ? cursorOf(last.seq) : null,
  };
}

/** The whole filtered set, newest first, read a thousand rows at a time: memory stays flat. */
async function* csvLines(db: Db, filter: AuditFilter): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const repository = auditRepository(db);
  let beforeSeq: number | undefined;
  for (;;) {
    const rows = await repository.page({ ...filter, beforeSeq, limit: CSV_ROWS_PER_READ });
    if (rows.length === 0) return;
    yield rows
      .map((row) => {
        const event = auditEventOf(row);
        return `${CSV_COLUMNS.map((column) => csvCell(event[column])).join(',')}\r\n`;
      })
      .join('');
    if (rows.length < CSV_ROWS_PER_READ) return;
    beforeSeq = rows.at(-1)?.seq;
  }
}

export interface AuditPluginOptions {
  db: Db;
}

export const auditPlugin: FastifyPluginCallback<AuditPluginOptions> = (app, { db }, done) => {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/audit-events',
      summary: 'Read or export the audit trail (auditors only)',
      description:
        'Every recorded event, newest first, filtered by actor, action, entityId and a range of days (`from`, `to`, UTC, inclusive). Paged with `limit` (1–500, default 100) and `cursor` (the `nextCursor` of the page before). `format=csv` streams the whole filtered set as CSV instead (the paging parameters do not apply). Accounts without the auditor role: 403.',
      tag: TAG,
      auth: 'caller',
      roles: AUDITORS,
      query: auditLogQuerySchema,
      response: {
        status: 200,
        schema: auditEventPageSchema,
        description: 'One page of events; with format=csv, text/csv',
        otherMediaTypes: ['text/csv'],
      },
      errors: [400, 403],
      audit: {
        action: 'audit.read',
        targetOf: ({ query }) => ({ detail: { query } }),
      },
    },
    async ({ query, reply, audit }) => {
      const { limit, cursor, format, ...filter } = query;
      const beforeSeq = seqOfCursor(cursor);
      if (format === 'csv') {
        await audit.record({ action: 'audit.export', detail: { filter } });
        const day = new Date().toISOString().slice(0, 10);
        await reply
          .code(200)
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="audit-events-${day}.csv"`)
          .header('Cache-Control', 'no-store')
          .send(Readable.from(csvLines(db, filter)));
        return undefined;
      }
      await reply.code(200).send(await pageOf(db, { ...filter, beforeSeq, limit }));
      return undefined;
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/:id/audit-events',
      summary: "An entity's activity: its audit events (any account)",
      description:
        'The events about this entity or its documents, newest first, paged with `limit` (1–500, default 50) and `cursor`. `kind=views` keeps only reads (actions ending in `.view`, `.list`, `.search`, `.read` or `.export`), `kind=changes` everything else (decisions, changes, requests); `all` (the default) both.',
      tag: TAG,
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      query: entityAuditQuerySchema,
      response: {
        status: 200,
        schema: auditEventPageSchema,
        description: "One page of the entity's events",
      },
      errors: [400],
    },
    async ({ params, query, reply }) => {
      const beforeSeq = seqOfCursor(query.cursor);
      await reply.code(200).send(
        await pageOf(db, {
          entityIdExact: params.id,
          kind: query.kind,
          beforeSeq,
          limit: query.limit,
        }),
      );
      return undefined;
    },
  );
  done();
};
