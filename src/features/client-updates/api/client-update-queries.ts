import { queryOptions } from '@tanstack/react-query';
import {
  clientResponseResponseSchema,
  clientUpdateConfigListResponseSchema,
  clientUpdateHistoryResponseSchema,
  type ClientResponse,
} from '../../../../contract/client-updates.ts';
import {
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../../../contract/entities.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';

/** Queries of the client-update panel: e-mail configurations, past requests, and recipients. */
export const clientUpdateQueries = {
  all: () => ['client-updates'] as const,
  /** The configurations and the portal host names a request may link to. */
  configs: () =>
    queryOptions({
      queryKey: [...clientUpdateQueries.all(), 'configs'] as const,
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/client-update-configs', {
          schema: clientUpdateConfigListResponseSchema,
          signal,
        }).then((envelope) => ({
          configs: envelope.data,
          // A service without `allowedDomains` accepts its configurations' own domains.
          domains: [
            ...new Set(
              envelope.allowedDomains ?? envelope.data.map((config) => config.defaultDomain),
            ),
          ],
        })),
      staleTime: 5 * 60_000,
    }),
  history: (entityId: string) =>
    queryOptions({
      queryKey: [...clientUpdateQueries.all(), 'history', entityId] as const,
      queryFn: ({ signal }) =>
        apiRequest(
          `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests`,
          { schema: clientUpdateHistoryResponseSchema, signal },
        ).then((envelope) => envelope.data),
    }),
  /**
   * A client's answer to one request: its documents and contact corrections; null where the server
   * holds none for a submitted request (a gateway's webhook brings no portal answer: 404).
   */
  response: (entityId: string, requestId: string) =>
    queryOptions({
      queryKey: [...clientUpdateQueries.all(), 'response', entityId, requestId] as const,
      queryFn: ({ signal }): Promise<ClientResponse | null> =>
        apiRequest(
          `/api/v2/entities/legal-entities/${encodeURIComponent(entityId)}/client-update-requests/${encodeURIComponent(requestId)}/response`,
          { schema: clientResponseResponseSchema, signal },
        ).then(
          (envelope) => envelope.data,
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 404) return null;
            throw error;
          },
        ),
    }),
  /** IDs of the natural persons whose last name holds `lastName` (the natural-person search). */
  peopleNamed: (lastName: string) =>
    queryOptions({
      queryKey: [...clientUpdateQueries.all(), 'people-named', lastName] as const,
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/entities/natural-persons', {
          query: { lastName },
          schema: searchResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  recipient: (personId: string) =>
    queryOptions({
      queryKey: [...clientUpdateQueries.all(), 'recipient', personId] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/natural-persons/${encodeURIComponent(personId)}`, {
          schema: naturalPersonResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
};
