import { Readable } from 'node:stream';
import type { FastifyPluginCallback } from 'fastify';
import { ACTORS, READERS, callerOf } from '../auth/caller.ts';
import {
  REVIEW_PAGE_DEFAULT,
  REVIEW_PAGE_MAX,
  reviewQueueQuerySchema,
  reviewQueueResponseSchema,
  takeNextResponseSchema,
  takeNextSchema,
} from '../../contract/reviews.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { ApiError } from '../http/errors.ts';
import { auditInTransaction, defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import {
  createReviewQueueKept,
  reviewQueueCsvLines,
  reviewQueuePage,
  takeNext,
} from './service.ts';

export interface ReviewsPluginOptions {
  services: AppServices;
}

/** The review queue (decisions.md, "Extensions"; docs/reviews.md); embedded mode only. */
export const reviewsPlugin: FastifyPluginCallback<ReviewsPluginOptions> = (
  app,
  { services },
  done,
) => {
  const kept = createReviewQueueKept(services.db);
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/reviews',
      summary: 'Review queue',
      description: `Legal entities and natural persons whose next KYC review falls in the window, soonest first, then by id. Windows on the server's UTC date: overdue (before today, the default), 7d and 30d (today to 7 or 30 days ahead, both included, overdue excluded), all (every entity with a next review date), undated (every entity without one, by id). Filters: status, country (ISO 3166-1 alpha-2), riskLevel, type (all, legal-entities, natural-persons), assignee (me, none, or a username). limit 1..${REVIEW_PAGE_MAX} (${REVIEW_PAGE_DEFAULT}); cursor: the nextCursor of the previous page, or an item's cursor to continue after that item. counts: the filtered entities in each window, whatever due is. format=csv streams every item of the window and filters as CSV instead (limit and cursor do not apply; cells starting with = + - @ are made inert), recorded as review.export.`,
      tag: 'Reviews',
      auth: 'caller',
      roles: READERS,
      query: reviewQueueQuerySchema,
      response: {
        status: 200,
        schema: reviewQueueResponseSchema,
        description:
          'One page of the queue, with the counts of every window; with format=csv, text/csv',
        otherMediaTypes: ['text/csv'],
      },
      errors: [400],
      bare: true,
      // Page reads are not recorded; an export of the queue is, like every other export.
      audit: { action: 'review.export', writtenByHandler: true },
    },
    async ({ query, request, reply, audit }) => {
      const caller = callerOf(request);
      if (query.format === 'csv') {
        const { limit: _limit, cursor: _cursor, format: _format, ...filter } = query;
        await audit.record({ detail: { filter } });
        const now = services.now();
        await reply
          .code(200)
          .type('text/csv; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="review-queue-${now.toISOString().slice(0, 10)}.csv"`,
          )
          .header('Cache-Control', 'no-store')
          .send(Readable.from(reviewQueueCsvLines(services.db, filter, now, caller.username)));
        return undefined;
      }
      return reviewQueuePage(services.db, kept, query, services.now(), caller);
    },
  );

  // Its own context so that the JSON-only hook touches no other route.
  void app.register((writes, _options, done) => {
    writes.addHook('onRequest', requireJsonBody);
    defineRoute(
      writes,
      {
        method: 'POST',
        url: '/reviews/take-next',
        summary: 'Take the next unassigned entity',
        description:
          "Assigns the soonest-due unassigned entity of the queue to the caller and answers its queue item. The optional body holds the queue's filters: due (default all), status, country, riskLevel, type. Concurrent calls never hand out the same entity. 404 when no unassigned entity is left. Audited as entity.assign.",
        tag: 'Reviews',
        auth: 'caller',
        roles: ACTORS,
        body: takeNextSchema,
        response: {
          status: 200,
          schema: takeNextResponseSchema,
          description: 'The queue item now assigned to the caller',
        },
        errors: [400, 404, 415],
        audit: { action: 'entity.assign', writtenByHandler: true },
      },
      async ({ body, request, audit }) => {
        const caller = callerOf(request).username;
        const appendAudit = auditInTransaction(audit);
        const item = await takeNext(services.db, body, services.now(), caller, (transaction, id) =>
          appendAudit(transaction, {
            entityId: id,
            detail: { from: null, to: caller, via: 'take-next' },
          }),
        );
        if (!item) throw new ApiError(404, 'No unassigned entity is left in this queue.');
        return item;
      },
    );
    done();
  });
  done();
};
