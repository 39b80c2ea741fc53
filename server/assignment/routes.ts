import type { FastifyInstance } from 'fastify';
import { assigneeInputSchema, assignmentResponseSchema } from '../../contract/assignment.ts';
import { ACTORS } from '../auth/caller.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { auditOf } from '../audit/audit-binding.ts';
import { idParamsSchema } from '../http/params.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { assignEntity } from './service.ts';

/** Who works on an entity (docs/reviews.md, "Assignment"); embedded mode only. */
export function registerAssignmentRoutes(app: FastifyInstance, services: AppServices): void {
  // Its own context so that the JSON-only hook touches no other route.
  void app.register((writes, _options, done) => {
    writes.addHook('onRequest', requireJsonBody);
    defineRoute(
      writes,
      {
        method: 'PUT',
        url: '/entities/:id/assignee',
        summary: 'Assign an entity to a reviewer',
        description:
          '{ username }: an enabled reviewer account (compared ignoring case), or null to unassign. Any other account is 400 on username. The entity shows it as kycMetaData.assignedUser (absent while unassigned) and the review queue as assignedUser. Audited as entity.assign with the previous and new assignee.',
        tag: 'Reviews',
        auth: 'caller',
        roles: ACTORS,
        params: idParamsSchema,
        body: assigneeInputSchema,
        response: {
          status: 200,
          schema: assignmentResponseSchema,
          description: 'The assignee now, and before',
        },
        errors: [400, 404, 415],
        audit: {
          action: 'entity.assign',
          writtenByHandler: true,
          targetOf: ({ params }) => ({ entityId: params.id }),
        },
      },
      ({ params, body, request }) =>
        assignEntity(services.db, params.id, body.username, auditOf(request, 'entity.assign')),
    );
    done();
  });
}
