import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  capabilitiesResponseSchema,
  type Capabilities,
} from '../../../../contract/capabilities.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const capabilityQueries = {
  all: () => ['capabilities'] as const,
  current: () =>
    queryOptions({
      queryKey: capabilityQueries.all(),
      queryFn: ({ signal }) =>
        apiRequest('/api/capabilities', { schema: capabilitiesResponseSchema, signal }).then(
          (envelope) => envelope.data,
        ),
      // The mode and the account's role change only with a restart or an operator's command.
      staleTime: 5 * 60_000,
    }),
};

/** What the running server offers, or undefined while it loads (show nothing optional then). */
export function useCapabilities(): Capabilities | undefined {
  return useQuery(capabilityQueries.current()).data;
}
