import { useMutation, useQueryClient } from '@tanstack/react-query';
import { legalEntityResponseSchema } from '../../../../contract/entities.ts';
import type { LegalEntityCreate } from '../../../../contract/legal-entity-create.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';

export interface CreateLegalEntityVariables {
  payload: LegalEntityCreate;
  /** The same key for every retry of one draft: the server creates the entity once. */
  idempotencyKey: string;
}

/** POST /api/v2/entities/legal-entities; every entity query is stale afterwards. */
export function useCreateLegalEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ payload, idempotencyKey }: CreateLegalEntityVariables) =>
      apiRequest('/api/v2/entities/legal-entities', {
        method: 'POST',
        body: payload,
        headers: { 'Idempotency-Key': idempotencyKey },
        schema: legalEntityResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: entityQueries.all() }),
  });
}
