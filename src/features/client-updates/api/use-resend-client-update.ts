import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clientUpdateAcceptedResponseSchema } from '../../../../contract/client-updates.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from './client-update-queries.ts';

/** Sends a failed request again under its own id: the server sends nothing for one already sent. */
export function useResendClientUpdate(entityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requestId: string) =>
      apiRequest(
        `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests/${encodeURIComponent(requestId)}/resend`,
        { method: 'POST', schema: clientUpdateAcceptedResponseSchema },
      ).then((envelope) => envelope.data),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: clientUpdateQueries.history(entityId).queryKey }),
  });
}
