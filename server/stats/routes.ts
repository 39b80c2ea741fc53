import type { FastifyPluginCallback } from 'fastify';
import { statsResponseSchema } from '../../contract/stats.ts';
import { READERS, callerOf } from '../auth/caller.ts';
import { defineRoute } from '../http/route.ts';
import { createWindowCounts } from '../reviews/service.ts';
import type { AppServices } from '../services.ts';
import { createStats } from './service.ts';

export interface StatsPluginOptions {
  services: AppServices;
}

/** The overview's counts (docs/reviews.md, "Overview"); embedded mode only. */
export const statsPlugin: FastifyPluginCallback<StatsPluginOptions> = (app, { services }, done) => {
  const stats = createStats(services.db, createWindowCounts(services.db));
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/stats',
      summary: 'Counts for the overview',
      description:
        "Every entity by KYC status, risk level and type; the review queue's windows counted as the queue counts them (overdue, due within 7 and 30 days from today, undated, on the server's UTC date); the held decisions the caller may confirm (0 for an auditor); the entities assigned to the caller. Audited as stats.read.",
      tag: 'Reviews',
      auth: 'caller',
      roles: READERS,
      response: {
        status: 200,
        schema: statsResponseSchema,
        description: 'The counts',
      },
      audit: { action: 'stats.read' },
    },
    ({ request }) => stats(services.now(), callerOf(request)),
  );
  done();
};
