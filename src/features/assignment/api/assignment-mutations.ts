import { useMutation } from '@tanstack/react-query';
import { assignmentResponseSchema } from '../../../../contract/assignment.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * Assigns an entity to a reviewer, or to nobody (null). The page passes `onAssigned`: this feature
 * does not know the query keys of the entity, the queue or the Activity it changes.
 */
export function useAssignEntity(onAssigned: () => Promise<unknown>) {
  return useMutation({
    mutationFn: ({ entityId, username }: { entityId: string; username: string | null }) =>
      apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/assignee`, {
        method: 'PUT',
        body: { username },
        schema: assignmentResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: onAssigned,
  });
}
