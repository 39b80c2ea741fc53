import { Button, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { auditQueries } from '../api/audit-queries.ts';
import {
  filterFromValues,
  searchParamsFromFilter,
  valuesFromSearchParams,
} from '../audit-filter-params.ts';
import { AuditEventTable, AuditEventTableSkeleton } from './audit-event-table.tsx';
import { AuditFilterForm } from './audit-filter-form.tsx';
import { ExportCsvButton } from './export-csv-button.tsx';
import { OnlyAuditorsState } from './only-auditors-state.tsx';

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/** /audit: every recorded event (auditors only), filtered by what the address says. */
export function AuditLogPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const address = searchParams.toString();
  const values = useMemo(() => valuesFromSearchParams(new URLSearchParams(address)), [address]);
  const filter = useMemo(() => filterFromValues(values), [values]);
  const log = useInfiniteQuery({
    ...auditQueries.log(filter ?? {}),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
  });

  if (isForbidden(log.error)) {
    return (
      <Stack gap="lg">
        <Title order={1}>Audit log</Title>
        <OnlyAuditorsState />
      </Stack>
    );
  }

  const events = log.data?.pages.flatMap((page) => page.data);
  let content;
  if (filter === null) {
    content = (
      <Text size="sm" c="dimmed">
        Correct the filters above to see events.
      </Text>
    );
  } else if (log.isError && !log.isFetchNextPageError && events === undefined) {
    content = (
      <ErrorState
        title="The audit log could not be loaded"
        message={log.error.message}
        onRetry={() => void log.refetch()}
        retrying={log.isFetching}
      />
    );
  } else if (events === undefined) {
    content = (
      <>
        <VisuallyHidden role="status">Loading events…</VisuallyHidden>
        <AuditEventTableSkeleton />
      </>
    );
  } else if (events.length === 0 && !log.isPlaceholderData) {
    content = (
      <EmptyState
        title="No events match"
        description={
          address === ''
            ? 'Nothing has been recorded yet.'
            : 'Widen the date range or clear a filter.'
        }
      />
    );
  } else {
    content = (
      <Stack gap="sm">
        <AuditEventTable events={events} busy={log.isPlaceholderData} />
        {log.isFetchNextPageError && (
          <ErrorState
            title="More events could not be loaded"
            message={log.error.message}
            onRetry={() => void log.fetchNextPage()}
            retrying={log.isFetchingNextPage}
          />
        )}
        <Group justify="space-between" align="center">
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {log.isPlaceholderData
              ? 'Loading…'
              : `Showing ${events.length} ${events.length === 1 ? 'event' : 'events'}${log.hasNextPage ? '' : ', all that match'}.`}
          </Text>
          {log.hasNextPage && !log.isPlaceholderData && !log.isFetchNextPageError && (
            <Button
              variant="default"
              onClick={() => void log.fetchNextPage()}
              loading={log.isFetchingNextPage}
            >
              Load more
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Title order={1}>Audit log</Title>
        <ExportCsvButton filter={filter} />
      </Group>
      <Paper withBorder p="md">
        <AuditFilterForm
          values={values}
          onApply={(next) => {
            const params = searchParamsFromFilter(next);
            // The same filter again means "look again", since the address would not change.
            if (params.toString() === address) void log.refetch();
            else setSearchParams(params);
          }}
          onClear={() => setSearchParams(new URLSearchParams())}
        />
      </Paper>
      <section aria-label="Events">{content}</section>
    </Stack>
  );
}
