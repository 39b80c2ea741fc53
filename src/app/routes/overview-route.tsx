import { EmptyState } from '../../components/empty-state.tsx';
import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { OverviewPage } from '../../features/overview/components/overview-page.tsx';
import { useCanAct } from '../use-can-act.ts';

/** /overview: the counts where the running mode keeps the entities (not the gateway). */
export function OverviewRoute() {
  const capabilities = useCapabilities();
  const canAct = useCanAct();
  if (!capabilities) return null;
  if (!capabilities.features.overview) {
    return (
      <EmptyState
        title="No overview here"
        description="The identity service this console reads offers no counts of its entities."
      />
    );
  }
  return <OverviewPage confirms={capabilities.features.waitingForMe && canAct} />;
}
