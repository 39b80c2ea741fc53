import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clientUpdateAcceptedResponseSchema } from '../../../../contract/client-updates.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from './client-update-queries.ts';

/**
 * "Send reminder": the key names the click, so the same click sent twice (a double click, a retry
 * after a lost answer) gets the reminder it sent, and the server sends one e-mail.
 */
export function useRemindClientUpdate(entityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ requestId, idempotencyKey }: { requestId: string; idempotencyKey: string }) =>
      apiRequest(
        `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests/${encodeURIComponent(requestId)}/remind`,
        {
          method: 'POST',
          headers: { 'Idempotency-Key': idempotencyKey },
          schema: clientUpdateAcceptedResponseSchema,
        },
      ).then((envelope) => envelope.data),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: clientUpdateQueries.history(entityId).queryKey }),
  });
}
