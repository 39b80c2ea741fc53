import type { FastifyInstance } from 'fastify';
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
import { auditOf } from '../audit/audit-binding.ts';
import { ApiError } from '../http/errors.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { createWindowCounts, reviewQueuePage, takeNext } from './service.ts';

/** The review queue (decisions.md, "Extensions"; docs/reviews.md); embedded mode only. */
export function registerReviewRoutes(app: FastifyInstance, services: AppServices): void {
  const windowCounts = createWindowCounts(services.db);
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/reviews',
      summary: 'Review queue',
      description: `Legal entities and natural persons whose next KYC review falls in the window, soonest first, then by id. Windows on the server's UTC date: overdue (before today, the default), 7d and 30d (today to 7 or 30 days ahead, both included, overdue excluded), all (every entity with a next review date), undated (every entity without one, by id). Filters: status, country (ISO 3166-1 alpha-2), riskLevel, type (all, legal-entities, natural-persons), assignee (me, none, or a username). limit 1..${REVIEW_PAGE_MAX} (${REVIEW_PAGE_DEFAULT}); cursor: the nextCursor of the previous page, or an item's cursor to continue after that item. counts: the filtered entities in each window, whatever due is.`,
      tag: 'Reviews',
      auth: 'caller',
      roles: READERS,
      query: reviewQueueQuerySchema,
      response: {
        status: 200,
        schema: reviewQueueResponseSchema,
        description: 'One page of the queue, with the counts of every window',
      },
      errors: [400],
      bare: true,
    },
    ({ query, request }) =>
      reviewQueuePage(services.db, windowCounts, query, services.now(), callerOf(request).username),
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
      async ({ body, request }) => {
        const caller = callerOf(request).username;
        const audit = auditOf(request, 'entity.assign');
        const item = await takeNext(services.db, body, services.now(), caller, (transaction, id) =>
          audit(transaction, {
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
}
