import type { FastifyInstance } from 'fastify';
import { READERS } from '../auth/caller.ts';
import {
  REVIEW_PAGE_DEFAULT,
  REVIEW_PAGE_MAX,
  reviewQueueQuerySchema,
  reviewQueueResponseSchema,
} from '../../src/contract/reviews.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { createWindowCounts, reviewQueuePage } from './service.ts';

/** The review queue (decisions.md, "Extensions"; docs/reviews.md); embedded mode only. */
export function registerReviewRoutes(app: FastifyInstance, services: AppServices): void {
  const windowCounts = createWindowCounts(services.db);
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/reviews',
      summary: 'Review queue',
      description: `Legal entities and natural persons whose next KYC review falls in the window, soonest first, then by id. Windows on the server's UTC date: overdue (before today, the default), 7d and 30d (today to 7 or 30 days ahead, both included, overdue excluded), all (every entity with a next review date), undated (every entity without one, by id). Filters: status, country (ISO 3166-1 alpha-2), riskLevel, type (all, legal-entities, natural-persons). limit 1..${REVIEW_PAGE_MAX} (${REVIEW_PAGE_DEFAULT}); cursor: the nextCursor of the previous page, or an item's cursor to continue after that item. counts: the filtered entities in each window, whatever due is.`,
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
    ({ query }) => reviewQueuePage(services.db, windowCounts, query, services.now()),
  );
}
