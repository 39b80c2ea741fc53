import {
  Box,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  type PaperProps,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconHistory } from '@tabler/icons-react';
import {
  useInfiniteQuery,
  type InfiniteData,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useId, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { AuditEvent, AuditEventPage } from '../../../../contract/audit.ts';
import { withVisibleControls as shown } from '../../../../contract/visible-text.ts';
import { auditQueries } from '../api/audit-queries.ts';
import { describeActor, describeEvent } from '../audit-event-labels.ts';
import { EventTime } from './event-time.tsx';
import { OutcomeBadge } from './outcome-badge.tsx';

/**
 * An entity page's Activity: decisions, changes and requests newest first; page views and
 * listings folded behind "Show views", so a busy record's views never bury what was decided.
 */
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
  const changes = useInfiniteQuery(auditQueries.entity(entityId, 'changes'));
  const views = useInfiniteQuery(auditQueries.entity(entityId, 'views'));

  if (changes.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading activity">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  if (changes.isError && !changes.isFetchNextPageError) {
    return (
      <ErrorState
        title="The activity could not be loaded"
        message={changes.error.message}
        onRetry={() => void changes.refetch()}
        retrying={changes.isFetching}
      />
    );
  }
  const events = changes.data.pages.flatMap((page) => page.data);
  const noViews = views.isSuccess && views.data.pages[0]?.data.length === 0;
  if (events.length === 0 && noViews) {
    return (
      <EmptyState
        title="No activity recorded yet"
        description="Decisions, changes, requests and views of this entity are listed here as they happen."
        icon={<IconHistory size={28} aria-hidden />}
      />
    );
  }
  return (
    <Stack gap="sm">
      {events.length === 0 ? (
        <Text size="sm" c="dimmed">
          No decisions, changes or requests yet.
        </Text>
      ) : (
        <EventList label="Decisions, changes and requests" events={events} />
      )}
      {changes.isFetchNextPageError && (
        <ErrorState
          title="Older activity could not be loaded"
          message={changes.error.message}
          onRetry={() => void changes.fetchNextPage()}
          retrying={changes.isFetchingNextPage}
        />
      )}
      {changes.hasNextPage && !changes.isFetchNextPageError && (
        <Group>
          <Button
            variant="default"
            onClick={() => void changes.fetchNextPage()}
            loading={changes.isFetchingNextPage}
          >
            Show older
          </Button>
        </Group>
      )}
      {!noViews && <FoldedViews views={views} />}
    </Stack>
  );
}

type ViewsQuery = UseInfiniteQueryResult<InfiniteData<AuditEventPage>>;

/** "Show views (12)": a disclosure button; the list it controls renders once opened. */
function FoldedViews({ views }: { views: ViewsQuery }) {
  const [shown, setShown] = useState(false);
  const regionId = useId();
  const loaded = views.data?.pages.flatMap((page) => page.data) ?? [];
  const count = views.isSuccess ? ` (${String(loaded.length)}${views.hasNextPage ? '+' : ''})` : '';
  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          leftSection={
            shown ? (
              <IconChevronDown size={16} aria-hidden />
            ) : (
              <IconChevronRight size={16} aria-hidden />
            )
          }
          aria-expanded={shown}
          aria-controls={regionId}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? 'Hide views' : 'Show views'}
          {count}
        </Button>
      </Group>
      <Box id={regionId} hidden={!shown}>
        {shown && <ViewsContent views={views} events={loaded} />}
      </Box>
    </Stack>
  );
}

function ViewsContent({ views, events }: { views: ViewsQuery; events: AuditEvent[] }) {
  if (views.isPending) {
    return <Skeleton h={36} role="status" aria-label="Loading views" />;
  }
  if (views.isError && !views.isFetchNextPageError) {
    return (
      <ErrorState
        title="The views could not be loaded"
        message={views.error.message}
        onRetry={() => void views.refetch()}
        retrying={views.isFetching}
      />
    );
  }
  return (
    <Stack gap="sm">
      <EventList label="Views and listings" events={events} />
      {views.isFetchNextPageError && (
        <ErrorState
          title="Older views could not be loaded"
          message={views.error.message}
          onRetry={() => void views.fetchNextPage()}
          retrying={views.isFetchingNextPage}
        />
      )}
      {views.hasNextPage && !views.isFetchNextPageError && (
        <Group>
          <Button
            variant="default"
            onClick={() => void views.fetchNextPage()}
            loading={views.isFetchingNextPage}
          >
            Show older views
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function EventList({ label, events }: { label: string; events: AuditEvent[] }) {
  return (
    <Stack component="ol" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {events.map((event) => (
        <ActivityItem key={event.id} event={event} />
      ))}
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
      <Group gap="xs" align="baseline" wrap="wrap" style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} title={shown(event.action)} style={{ overflowWrap: 'anywhere' }}>
          {describeEvent(event)}
        </Text>
        <Text size="sm" c="dimmed">
          by {describeActor(event)}
        </Text>
        <OutcomeBadge outcome={event.outcome} />
      </Group>
      <EventTime at={event.at} />
    </Group>
  );
}
