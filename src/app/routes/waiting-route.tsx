import { useQueryClient } from '@tanstack/react-query';
import { EmptyState } from '../../components/empty-state.tsx';
import { auditQueries } from '../../features/audit/api/audit-queries.ts';
import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { WaitingPage } from '../../features/decisions/components/waiting-page.tsx';
import { entityQueries } from '../../lib/entity-queries.ts';
import { reviewQueries } from '../../features/reviews/api/review-queries.ts';

/** /waiting-for-me: held decisions a reviewer may confirm, where the running mode keeps them. */
export function WaitingRoute() {
  const capabilities = useCapabilities();
  const queryClient = useQueryClient();
  if (!capabilities) return null;
  if (!capabilities.features.waitingForMe || capabilities.account.role !== 'reviewer') {
    return (
      <EmptyState
        title="Nothing to confirm here"
        description={
          capabilities.features.waitingForMe
            ? 'Only reviewer accounts confirm held decisions.'
            : 'The identity service this console reads holds no decisions for a second reviewer.'
        }
      />
    );
  }
  // A confirmed decision changes the entity, where it stands in the queue, and its Activity.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: entityQueries.all() }),
      queryClient.invalidateQueries({ queryKey: reviewQueries.all() }),
      queryClient.invalidateQueries({ queryKey: auditQueries.all() }),
    ]);
  return <WaitingPage username={capabilities.account.username} onEntityChanged={refresh} />;
}
