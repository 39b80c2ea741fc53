import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notePageSchema, noteResponseSchema } from '../../../../contract/notes.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const notesPath = (entityId: string) => `/api/v2/entities/${encodeURIComponent(entityId)}/notes`;

export const noteQueries = {
  all: () => ['notes'] as const,
  /** Newest first; each further page holds older notes. */
  thread: (entityId: string) =>
    infiniteQueryOptions({
      queryKey: [...noteQueries.all(), entityId] as const,
      queryFn: ({ signal, pageParam }) =>
        apiRequest(notesPath(entityId), {
          query: { limit: 50, cursor: pageParam },
          schema: notePageSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
};

export function useAddNote(entityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...noteQueries.all(), 'add', entityId],
    mutationFn: (text: string) =>
      apiRequest(notesPath(entityId), {
        method: 'POST',
        body: { text },
        schema: noteResponseSchema,
      }).then((envelope) => envelope.data),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: noteQueries.thread(entityId).queryKey }),
  });
}
