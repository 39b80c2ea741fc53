import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { WaitingDecision } from '../../../../contract/decisions.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { decisionQueries } from '../api/decision-queries.ts';
import { PendingDecision } from './review-decision-panel.tsx';

const KIND_LABELS: Record<WaitingDecision['kind'], string> = {
  verification: 'Review outcome',
  'person-review': 'Person review',
  'risk-level': 'Risk level change',
};

export interface WaitingPageProps {
  /** The signed-in account: the server lists only others' decisions, this keeps the panel honest. */
  username: string;
  /** Refreshes what a confirmed decision changes: the entity's pages, the queue, the Activity. */
  onEntityChanged: () => Promise<unknown>;
}

/** Held decisions other reviewers recorded, oldest first, each confirmed or rejected in place. */
export function WaitingPage({ username, onEntityChanged }: WaitingPageProps) {
  useDocumentTitle('Waiting for me');
  const query = useInfiniteQuery(decisionQueries.waiting());
  const pages = query.data?.pages;
  const items = pages?.flatMap((page) => page.data);
  const total = pages?.[0]?.total;

  let content;
  if (query.isError && items === undefined) {
    content = (
      <ErrorState
        title="Decisions waiting for you could not be loaded"
        message={query.error.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (items === undefined) {
    content = (
      <Stack gap="sm">
        <VisuallyHidden role="status">Loading the decisions waiting for you…</VisuallyHidden>
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} height={120} radius="md" />
        ))}
      </Stack>
    );
  } else if (items.length === 0) {
    content = (
      <EmptyState
        title="Nothing waits for your confirmation"
        description="Decisions another reviewer holds for a second pair of eyes appear here, oldest first."
      />
    );
  } else {
    content = (
      <Stack gap="md">
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item) => (
            <Paper component="li" key={item.id} withBorder p="md" radius="md">
              <Stack gap="xs">
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Anchor
                    component={Link}
                    to={paths.entity(item.entityId, item.entityType)}
                    fw={600}
                  >
                    {item.entityName || item.entityId}
                  </Anchor>
                  <Group gap="xs">
                    <Badge variant="light" color="gray">
                      {item.entityType === 'Legal Entity' ? 'Legal entity' : 'Natural person'}
                    </Badge>
                    <Badge variant="light">{KIND_LABELS[item.kind]}</Badge>
                  </Group>
                </Group>
                <Text size="xs" c="dimmed">
                  Held since {formatDateTime(item.requestedAt)}
                </Text>
                <PendingDecision
                  pending={item}
                  entityId={item.entityId}
                  username={username}
                  onEntityChanged={onEntityChanged}
                />
              </Stack>
            </Paper>
          ))}
        </Stack>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {`Showing ${items.length} of ${total ?? items.length}`}
          </Text>
          {query.hasNextPage ? (
            <Button
              variant="default"
              onClick={() => void query.fetchNextPage()}
              loading={query.isFetchingNextPage}
            >
              Load more
            </Button>
          ) : null}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Waiting for me</Title>
        <Text c="dimmed" size="sm">
          Decisions other reviewers recorded that wait for a second reviewer (four-eyes rule),
          oldest first. Confirming applies one as if recorded now; rejecting leaves the entity as it
          was.
        </Text>
      </div>
      {content}
    </Stack>
  );
}
