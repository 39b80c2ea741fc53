import { useMutation } from '@tanstack/react-query';
import { envelopeSchema } from '../../../../contract/common.ts';
import type { DocumentDecision } from '../../../../contract/decisions.ts';
import { documentMetadataSchema } from '../../../../contract/entities.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const decidedResponseSchema = envelopeSchema(documentMetadataSchema);

/** Approves or rejects a document; `onDecided` refreshes the lists that show it (the page's). */
export function useDecideDocument(onDecided: () => Promise<unknown>) {
  return useMutation({
    mutationFn: ({ documentId, decision }: { documentId: string; decision: DocumentDecision }) =>
      apiRequest(`/api/v2/documents/${encodeURIComponent(documentId)}`, {
        method: 'PATCH',
        body: decision,
        schema: decidedResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: onDecided,
  });
}
