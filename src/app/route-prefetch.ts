import { connectSessionToApiClient } from '../features/auth/session/connect-api-client.ts';
import { getSession } from '../features/auth/session/session-store.ts';
import { capabilityQueries } from '../features/capabilities/api/capabilities-queries.ts';
import { entityQueries } from '../lib/entity-queries.ts';
import { entityIndexQueries } from '../features/entities/api/entity-index-queries.ts';
import { indexViewFromSearchParams } from '../features/entities/components/entity-index-params.ts';
import { filtersFromSearchParams } from '../features/entities/components/entity-list-params.ts';
import { queryClient } from './query-client-instance.ts';

/** A failed prefetch is the page's to show: its own query holds the error and retries. */
const ignore = () => undefined;

/**
 * Starts a signed-in page's first requests while its code still loads, into the cache its page
 * reads (same keys), so the data does not wait for the chunks and the first render. Signed out,
 * nothing is asked: the page sends the visitor to sign-in.
 */
function signedIn(): boolean {
  if (getSession() === null) return false;
  // The shell connects the client too; its chunk may still be on the way.
  connectSessionToApiClient();
  return true;
}

/** What the shell asks on every signed-in page. */
export function prefetchShell(): void {
  if (signedIn()) void queryClient.query(capabilityQueries.current()).catch(ignore);
}

/** /entities: the page the address names, of the entity index where the server has one. */
export function prefetchEntityList(url: URL): void {
  if (!signedIn()) return;
  const prefetchPage = async () => {
    const capabilities = await queryClient.query(capabilityQueries.current());
    if (capabilities.features.entityIndex) {
      await queryClient.query(entityIndexQueries.page(indexViewFromSearchParams(url.searchParams)));
    } else {
      await queryClient.query(entityQueries.list(filtersFromSearchParams(url.searchParams)));
    }
  };
  void prefetchPage().catch(ignore);
}

/** /entities/:id: a bare id is asked as a legal entity first, as the page itself does. */
export function prefetchLegalEntity(id: string | undefined): void {
  if (id && signedIn()) void queryClient.query(entityQueries.legalEntity(id)).catch(ignore);
}
