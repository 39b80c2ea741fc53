import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  clientUpdateAcceptedResponseSchema,
  type ClientUpdateRequest,
} from '../../../../contract/client-updates.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from './client-update-queries.ts';

/** POST, not the interface's GET: a browser cannot send a body with GET. */
export function useRequestClientUpdate(entityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ClientUpdateRequest) =>
      apiRequest(
        `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/request-client-update`,
        { method: 'POST', body: request, schema: clientUpdateAcceptedResponseSchema },
      ).then((envelope) => envelope.data),
    // A failed send is recorded too, so the history is stale either way.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: clientUpdateQueries.history(entityId).queryKey }),
  });
}
