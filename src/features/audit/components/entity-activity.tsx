import { Button, Group, Paper, Skeleton, Stack, Text, Title, type PaperProps } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { AuditEvent } from '../../../contract/audit.ts';
import { auditQueries } from '../api/audit-queries.ts';
import { describeEvent } from '../audit-event-labels.ts';
import { EventTime } from './event-time.tsx';
import { OutcomeBadge } from './outcome-badge.tsx';

/** An entity page's Activity: who did what to this entity, newest first, older on request. */
export function EntityActivity({ entityId, mt }: { entityId: string; mt?: PaperProps['mt'] }) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" mt={mt} component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="sm">
        Activity
      </Title>
      <ActivityContent entityId={entityId} />
    </Paper>
  );
}

function ActivityContent({ entityId }: { entityId: string }) {
  const activity = useInfiniteQuery(auditQueries.entity(entityId));

  if (activity.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading activity">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  if (activity.isError && !activity.isFetchNextPageError) {
    return (
      <ErrorState
        title="The activity could not be loaded"
        message={activity.error.message}
        onRetry={() => void activity.refetch()}
        retrying={activity.isFetching}
      />
    );
  }
  const events = activity.data.pages.flatMap((page) => page.data);
  if (events.length === 0) {
    return (
      <EmptyState
        title="No activity recorded yet"
        description="Views, downloads and decisions on this entity are listed here as they happen."
        icon={<IconHistory size={28} aria-hidden />}
      />
    );
  }
  return (
    <Stack gap="sm">
      <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Events">
        {events.map((event) => (
          <ActivityItem key={event.id} event={event} />
        ))}
      </Stack>
      {activity.isFetchNextPageError && (
        <ErrorState
          title="Older activity could not be loaded"
          message={activity.error.message}
          onRetry={() => void activity.fetchNextPage()}
          retrying={activity.isFetchingNextPage}
        />
      )}
      {activity.hasNextPage && !activity.isFetchNextPageError && (
        <Group>
          <Button
            variant="default"
            onClick={() => void activity.fetchNextPage()}
            loading={activity.isFetchingNextPage}
          >
            Show older
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ActivityItem({ event }: { event: AuditEvent }) {
  return (
    <Group
      component="li"
      justify="space-between"
      align="baseline"
      wrap="wrap"
      gap="xs"
      py="xs"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="xs" align="baseline" wrap="wrap">
        <Text size="sm" fw={500} title={event.action}>
          {describeEvent(event)}
        </Text>
        <Text size="sm" c="dimmed">
          by {event.actor}
        </Text>
        <OutcomeBadge outcome={event.outcome} />
      </Group>
      <EventTime at={event.at} />
    </Group>
  );
}
