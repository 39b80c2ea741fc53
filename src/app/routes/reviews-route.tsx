import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { ReviewsPage } from '../../features/reviews/components/reviews-page.tsx';
import { EmptyState } from '../../components/empty-state.tsx';

/** /reviews: the queue where the running mode offers it (the gateway does not). */
export function ReviewsRoute() {
  const capabilities = useCapabilities();
  if (capabilities && !capabilities.features.reviewQueue) {
    return (
      <EmptyState
        title="No review queue here"
        description="The identity service this console reads has no review queue."
      />
    );
  }
  return <ReviewsPage />;
}
