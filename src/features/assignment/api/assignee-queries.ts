import { queryOptions } from '@tanstack/react-query';
import { entityAssigneeResponseSchema } from '../../../../contract/assignment.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * GET …/assignee: who works on an entity, for gateway mode, where the identity service's entity
 * does not carry it. Under the entities' key, so whatever refreshes an entity refreshes it too.
 */
export const assigneeQueries = {
  of: (entityId: string) =>
    queryOptions({
      queryKey: ['entities', 'assignee', entityId] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/assignee`, {
          schema: entityAssigneeResponseSchema,
          signal,
        }).then((envelope) => envelope.data.assignedUser),
    }),
};
