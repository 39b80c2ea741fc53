import { Readable } from 'node:stream';
import type { FastifyPluginCallback } from 'fastify';
import {
  ENTITY_INDEX_PAGE_DEFAULT,
  ENTITY_INDEX_PAGE_MAX,
  entityIndexQuerySchema,
  entityIndexResponseSchema,
} from '../../contract/entity-index.ts';
import { READERS, callerOf } from '../auth/caller.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { createEntityIndexKept, entityIndexCsvLines, entityIndexPage } from './service.ts';

export interface EntityIndexPluginOptions {
  services: AppServices;
}

/** Browse every entity, sorted and filtered, with a total (decisions.md, "Case work"); embedded mode only. */
export const entityIndexPlugin: FastifyPluginCallback<EntityIndexPluginOptions> = (
  app,
  { services },
  done,
) => {
  const kept = createEntityIndexKept(services.db);
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entity-index',
      summary: 'Browse entities: sorted, filtered, with a total',
      description: `Legal entities and natural persons, sorted by name (a company's name, a person's last then first name, compared folded as search folds them), created, nextReview (undated entities after the dated ones ascending) or status, asc or desc, ties by id. Filters: type (all, legal-entities, natural-persons), kycStatus, riskLevel, country (ISO 3166-1 alpha-2), assignee (me, none, or a username), q (the start of a name, folded, or an entity ID or external ID, exact). total: every matching entity. limit 1..${ENTITY_INDEX_PAGE_MAX} (${ENTITY_INDEX_PAGE_DEFAULT}); cursor: the nextCursor of the previous page, with the same sort. format=csv streams every matching row as CSV instead (limit and cursor do not apply; cells starting with = + - @ are made inert), recorded as entity.export.`,
      tag: 'Entities',
      auth: 'caller',
      roles: READERS,
      query: entityIndexQuerySchema,
      audit: { action: 'entity.index', targetOf: ({ query }) => ({ detail: { query } }) },
      response: {
        status: 200,
        schema: entityIndexResponseSchema,
        description: 'One page of entities and the total; with format=csv, text/csv',
        otherMediaTypes: ['text/csv'],
      },
      errors: [400],
      bare: true,
    },
    async ({ query, request, reply, audit }) => {
      const caller = callerOf(request);
      const { limit, cursor, format, ...filter } = query;
      if (format === 'csv') {
        await audit.record({ action: 'entity.export', detail: { filter } });
        const day = services.now().toISOString().slice(0, 10);
        await reply
          .code(200)
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="entities-${day}.csv"`)
          .header('Cache-Control', 'no-store')
          .send(Readable.from(entityIndexCsvLines(services.db, kept, filter, caller)));
        return undefined;
      }
      return entityIndexPage(services.db, kept, { ...filter, limit, cursor, format }, caller);
    },
  );
  done();
};
