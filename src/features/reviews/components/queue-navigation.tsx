import { Anchor, Button, Group, Paper, Skeleton, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { ReviewWindow } from '../../../../contract/reviews.ts';
import { reviewQueries } from '../api/review-queries.ts';
import {
  countOf,
  queueFromSearchParams,
  queueLinkSearch,
  searchParamsFromQueue,
} from '../review-params.ts';

const IN_WINDOW: Record<ReviewWindow, string> = {
  overdue: 'overdue',
  '7d': 'due in 7 days',
  '30d': 'due in 30 days',
  undated: 'undated',
  responded: 'with a client response',
  all: 'in the queue',
};

function positionText(position: number, total: number | undefined, window: ReviewWindow) {
  // A reviewed entity may have left the window since it was opened: then only the position is known.
  if (total === undefined || total < position) return `Number ${position} ${IN_WINDOW[window]}`;
  return `${position} of ${total} ${IN_WINDOW[window]}`;
}

/**
 * On an entity page opened from the Reviews page (`?queue=…&after=…&position=…`): where it stood
 * in the queue, the way back, and the next entity of the same queue and filters. `after` is the
 * item's own cursor, so the next one is found even when this entity has just been reviewed.
 */
export function QueueNavigation() {
  const [searchParams] = useSearchParams();
  const window = searchParams.get('queue');
  const after = searchParams.get('after');
  const queue = queueFromSearchParams(searchParams, 'queue');
  const position = Math.max(1, Number(searchParams.get('position')) || 1);
  const next = useQuery({
    ...reviewQueries.next(queue, after ?? ''),
    enabled: window !== null && after !== null,
  });
  if (window === null || after === null) return null;

  const backSearch = searchParamsFromQueue(queue).toString();
  const nextItem = next.data?.data[0];
  const total = countOf(next.data?.counts, queue.due);

  return (
    <Paper component="nav" aria-label="Review queue" withBorder p="sm" mb="md" radius="md">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="md" wrap="wrap">
          <Anchor component={Link} to={`${paths.reviews}${backSearch ? `?${backSearch}` : ''}`}>
            <Group gap={4} wrap="nowrap" component="span">
              <IconArrowLeft size={16} aria-hidden />
              Back to the queue
            </Group>
          </Anchor>
          <Text size="sm" c="dimmed">
            {positionText(position, total, queue.due)}
          </Text>
        </Group>
        {next.isPending ? (
          <Skeleton height={36} width={200} aria-hidden />
        ) : next.isError ? (
          <Text size="sm" c="red">
            The next entity could not be found: {next.error.message}
          </Text>
        ) : nextItem ? (
          <Button
            component={Link}
            to={`${paths.entity(nextItem.entityId, nextItem.type)}${queueLinkSearch(queue, nextItem.cursor, position + 1)}`}
            rightSection={<IconArrowRight size={16} aria-hidden />}
            variant="light"
            maw="100%"
          >
            <Text span truncate inherit>
              Next in queue: {nextItem.name || nextItem.entityId}
            </Text>
          </Button>
        ) : (
          <Text size="sm">End of the queue</Text>
        )}
      </Group>
    </Paper>
  );
}
