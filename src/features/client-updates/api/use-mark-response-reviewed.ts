import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clientUpdateRecordResponseSchema } from '../../../../contract/client-updates.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from './client-update-queries.ts';

/** Closes a submitted response ("Mark reviewed"); a second click changes nothing on the server. */
export function useMarkResponseReviewed(entityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requestId: string) =>
      apiRequest(
        `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests/${encodeURIComponent(requestId)}/review`,
        { method: 'POST', schema: clientUpdateRecordResponseSchema },
      ).then((envelope) => envelope.data),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: clientUpdateQueries.history(entityId).queryKey }),
  });
}
