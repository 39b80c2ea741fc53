import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  clientResponseResponseSchema,
  type ContactDecision,
} from '../../../../contract/client-updates.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from './client-update-queries.ts';

/** Applies or dismisses a client's contact corrections; the server takes one decision per answer. */
export function useDecideContact(entityId: string, requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: ContactDecision) =>
      apiRequest(
        `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests/${encodeURIComponent(requestId)}/response/contact`,
        { method: 'POST', body: decision, schema: clientResponseResponseSchema },
      ).then((envelope) => envelope.data),
    onSuccess: (response) => {
      queryClient.setQueryData(
        clientUpdateQueries.response(entityId, requestId).queryKey,
        response,
      );
    },
    // A 409 means another reviewer decided first: the refetch shows their outcome.
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: clientUpdateQueries.response(entityId, requestId).queryKey,
      }),
  });
}
