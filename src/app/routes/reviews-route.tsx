import { useQueryClient } from '@tanstack/react-query';
import { AssigneeControl } from '../../features/assignment/components/assignee-control.tsx';
import { auditQueries } from '../../features/audit/api/audit-queries.ts';
import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { entityQueries } from '../../lib/entity-queries.ts';
import { reviewQueries } from '../../features/reviews/api/review-queries.ts';
import { ReviewsPage } from '../../features/reviews/components/reviews-page.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useCanAct } from '../use-can-act.ts';
import { QueueBulkActions } from './queue-bulk-actions.tsx';

/** /reviews: the queue where the running mode offers it (the gateway does not). */
export function ReviewsRoute() {
  const capabilities = useCapabilities();
  const canAct = useCanAct();
  const queryClient = useQueryClient();
  // Whose queue opens first depends on the mode and the account: wait for them.
  if (!capabilities) return null;
  if (!capabilities.features.reviewQueue) {
    return (
      <EmptyState
        title="No review queue here"
        description="The identity service this console reads has no review queue."
      />
    );
  }
  const { assignment } = capabilities.features;
  // An assignment shows in the queue, on the entity's page and in its Activity.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: reviewQueries.all() }),
      queryClient.invalidateQueries({ queryKey: entityQueries.all() }),
      queryClient.invalidateQueries({ queryKey: auditQueries.all() }),
    ]);
  const { username } = capabilities.account;
  return (
    <ReviewsPage
      assignment={assignment}
      canTakeNext={canAct}
      renderBulkActions={
        assignment && canAct
          ? (selected, select) => (
              <QueueBulkActions selected={selected} select={select} onChanged={refresh} />
            )
          : undefined
      }
      renderRowActions={
        assignment && canAct
          ? (item) => (
              <AssigneeControl
                variant="row"
                entityId={item.entityId}
                entityName={item.name || item.entityId}
                assignedUser={item.assignedUser}
                username={username}
                onAssigned={refresh}
              />
            )
          : undefined
      }
    />
  );
}
