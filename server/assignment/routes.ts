import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import {
  assigneeInputSchema,
  assignmentResponseSchema,
  entityAssigneeResponseSchema,
  reviewerListResponseSchema,
} from '../../contract/assignment.ts';
import { ACTORS, READERS } from '../auth/caller.ts';
import { requireJsonBody } from '../http/json-body.ts';
import { ApiError } from '../http/errors.ts';
import { idParamsSchema } from '../http/params.ts';
import { auditInTransaction, defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { assignmentRepository, type AssignmentStore } from './repository.ts';
import { assignEntity } from './service.ts';

/** Gateway mode: assignments in the gateway's own database, of entities the identity service has. */
export interface GatewayAssignmentOptions {
  /** Throws 404 unless the identity service knows the entity. */
  requireEntity: (request: FastifyRequest, id: string) => Promise<void>;
}

export interface AssignmentPluginOptions {
  services: Pick<AppServices, 'db'>;
  /** Gateway mode: the routes over the gateway's own table, of entities the identity service knows. */
  gateway?: GatewayAssignmentOptions;
}

/**
 * Who works on an entity (docs/reviews.md, "Assignment"). Embedded mode keeps it on the entity;
 * the gateway registers the same routes over its own database (docs/gateway.md).
 */
export const assignmentPlugin: FastifyPluginCallback<AssignmentPluginOptions> = (
  app,
  { services, gateway },
  done,
) => {
  const store: AssignmentStore = gateway ? 'gateway' : 'entities';
  const repository = () => assignmentRepository(services.db, store);
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/reviewers',
      summary: 'Who can be assigned',
      description:
        'Every enabled reviewer account (auditors only read, so are never assigned), by display name: the choices of the assign control, bulk assign and the palette. In gateway mode: everyone who has signed in through the gateway and is not an auditor there, named by username.',
      tag: 'Reviews',
      auth: 'caller',
      roles: READERS,
      response: {
        status: 200,
        schema: reviewerListResponseSchema,
        description: 'The assignable accounts',
      },
    },
    () => repository().reviewers(),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/:id/assignee',
      summary: 'Who works on an entity',
      description:
        'The assignee alone, null while unassigned: in gateway mode the entity comes from the identity service, which knows nothing of assignments, so the console reads it here. 404 for an unknown entity.',
      tag: 'Reviews',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: entityAssigneeResponseSchema,
        description: 'The assignee now',
      },
      errors: [404],
    },
    async ({ params, request }) => {
      await gateway?.requireEntity(request, params.id);
      const current = await repository().assigneeOf(params.id);
      if (!current) throw new ApiError(404, `No entity has the id ${params.id}.`);
      return { entityId: params.id, assignedUser: current.assignee };
    },
  );

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
          '{ username }: an enabled reviewer account (compared ignoring case), or null to unassign. Any other account is 400 on username. The entity shows it as kycMetaData.assignedUser (absent while unassigned) and the review queue as assignedUser; in gateway mode it is kept by the gateway and read with GET …/assignee. Audited as entity.assign with the previous and new assignee.',
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
      async ({ params, body, request, audit }) => {
        await gateway?.requireEntity(request, params.id);
        return assignEntity(
          services.db,
          params.id,
          body.username,
          auditInTransaction(audit),
          store,
        );
      },
    );
    done();
  });
  done();
};
