import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pendingVerificationListResponseSchema,
  pendingVerificationResponseSchema,
  recordedVerificationResponseSchema,
  type RecordVerification,
} from '../../../contract/decisions.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const decisionQueries = {
  all: () => ['decisions'] as const,
  pending: (entityId: string) =>
    queryOptions({
      queryKey: [...decisionQueries.all(), 'pending', entityId] as const,
      queryFn: ({ signal }) =>
        apiRequest(
          `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/pending-verifications`,
          { schema: pendingVerificationListResponseSchema, signal },
        ).then((envelope) => envelope.data),
    }),
};

/**
 * After any decision the entity's own queries are stale too; the page passes `onEntityChanged`
 * because this feature does not know the entity feature's query keys.
 */
function useAfterDecision(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: decisionQueries.pending(entityId).queryKey }),
      onEntityChanged(),
    ]);
}

export function useRecordVerification(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const afterDecision = useAfterDecision(entityId, onEntityChanged);
  return useMutation({
    mutationFn: (outcome: RecordVerification) =>
      apiRequest(`/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/verifications`, {
        method: 'POST',
        body: outcome,
        schema: recordedVerificationResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: afterDecision,
  });
}

export function useConfirmPending(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const afterDecision = useAfterDecision(entityId, onEntityChanged);
  return useMutation({
    mutationFn: (pendingId: string) =>
      apiRequest(`/api/v2/pending-verifications/${encodeURIComponent(pendingId)}/confirm`, {
        method: 'POST',
        body: {},
        schema: recordedVerificationResponseSchema,
      }).then((envelope) => envelope.data),
    // A 409 (someone else decided first) leaves the page stale as well.
    onSettled: afterDecision,
  });
}

export function useRejectPending(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const afterDecision = useAfterDecision(entityId, onEntityChanged);
  return useMutation({
    mutationFn: ({ pendingId, reason }: { pendingId: string; reason: string }) =>
      apiRequest(`/api/v2/pending-verifications/${encodeURIComponent(pendingId)}/reject`, {
        method: 'POST',
        body: { reason },
        schema: pendingVerificationResponseSchema,
      }).then((envelope) => envelope.data),
    onSettled: afterDecision,
  });
}
