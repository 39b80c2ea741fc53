import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  confirmedDecisionResponseSchema,
  pendingVerificationListResponseSchema,
  pendingVerificationResponseSchema,
  recordedPersonReviewResponseSchema,
  recordedVerificationResponseSchema,
  riskLevelChangedResponseSchema,
  type PersonReviewRequest,
  type RecordVerification,
  type RiskLevelChange,
  waitingDecisionsPageSchema,
} from '../../../../contract/decisions.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export type EntityKind = 'legal' | 'person';

const entityPathOf = (kind: EntityKind) =>
  kind === 'legal' ? '/api/v2/entities/legal-entities' : '/api/v2/entities/natural-persons';

export const decisionQueries = {
  all: () => ['decisions'] as const,
  /** The entity's held decisions of any kind (an id is one entity, so the kind is not in the key). */
  pending: (entityId: string, entityKind: EntityKind = 'legal') =>
    queryOptions({
      queryKey: [...decisionQueries.all(), 'pending', entityId] as const,
      queryFn: ({ signal }) =>
        apiRequest(
          `${entityPathOf(entityKind)}/${encodeURIComponent(entityId)}/pending-verifications`,
          { schema: pendingVerificationListResponseSchema, signal },
        ).then((envelope) => envelope.data),
    }),
  /** Held decisions of any entity waiting for the signed-in reviewer, oldest first, paged. */
  waiting: () =>
    infiniteQueryOptions({
      queryKey: [...decisionQueries.all(), 'waiting', 'list'] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest('/api/v2/pending-verifications', {
          query: { limit: WAITING_PAGE_SIZE, cursor: pageParam },
          schema: waitingDecisionsPageSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  /** How many decisions wait for the signed-in reviewer, for the navigation. */
  waitingCount: () =>
    queryOptions({
      queryKey: [...decisionQueries.all(), 'waiting', 'count'] as const,
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/pending-verifications', {
          query: { limit: 1 },
          schema: waitingDecisionsPageSchema,
          signal,
        }).then((page) => page.total),
      // Another reviewer's held decision appears without a reload.
      refetchInterval: 60_000,
    }),
};

export const WAITING_PAGE_SIZE = 25;

/**
 * After any decision the entity's own queries are stale too; the page passes `onEntityChanged`
 * because this feature does not know the entity feature's query keys.
 */
function useAfterDecision(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: decisionQueries.pending(entityId).queryKey }),
      queryClient.invalidateQueries({ queryKey: [...decisionQueries.all(), 'waiting'] }),
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

export function useRecordPersonReview(personId: string, onEntityChanged: () => Promise<unknown>) {
  const afterDecision = useAfterDecision(personId, onEntityChanged);
  return useMutation({
    mutationFn: (review: PersonReviewRequest) =>
      apiRequest(`/api/v2/entities/natural-persons/${encodeURIComponent(personId)}/reviews`, {
        method: 'POST',
        body: review,
        schema: recordedPersonReviewResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: afterDecision,
  });
}

/** Legal entities and natural persons alike; a held change answers 202 with state "pending". */
export function useChangeRiskLevel(entityId: string, onEntityChanged: () => Promise<unknown>) {
  const afterDecision = useAfterDecision(entityId, onEntityChanged);
  return useMutation({
    mutationFn: (change: RiskLevelChange) =>
      apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/risk-level`, {
        method: 'PUT',
        body: change,
        schema: riskLevelChangedResponseSchema,
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
        schema: confirmedDecisionResponseSchema,
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
