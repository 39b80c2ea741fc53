import {
  Button,
  Group,
  NativeSelect,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { EntityTypeFilter } from '../../../../contract/entities.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { entityQueries, type EntityListFilters } from '../../../lib/entity-queries.ts';
import {
  filtersFromSearchParams,
  PAGE_SIZES,
  searchParamsFromFilters,
} from './entity-list-params.ts';
import { EntityTable, EntityTableSkeleton } from './entity-table.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';

const TYPE_TABS: { value: EntityTypeFilter; label: string; emptyTitle: string }[] = [
  { value: 'all', label: 'All', emptyTitle: 'No entities yet' },
  { value: 'legal-entities', label: 'Legal entities', emptyTitle: 'No legal entities yet' },
  { value: 'natural-persons', label: 'Natural persons', emptyTitle: 'No natural persons yet' },
];

function isTypeFilter(value: string | null): value is EntityTypeFilter {
  return TYPE_TABS.some((tab) => tab.value === value);
}

/** The list's whole state lives in the address, so links are shareable and Back works. */
function useListFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(searchParams), [searchParams]);
  const update = (changes: Partial<EntityListFilters>) => {
    setSearchParams(searchParamsFromFilters({ ...filters, ...changes }));
  };
  return [filters, update] as const;
}

/**
 * The Entities page: sorted, filtered and counted through the entity index where the server has
 * one (embedded mode), else the interface's list by creation time (gateway mode).
 */
export function EntityListPage() {
  useDocumentTitle('Entities');
  const [filters, updateFilters] = useListFilters();
  const query = useQuery({ ...entityQueries.list(filters), placeholderData: keepPreviousData });
  const entities = query.data;
  const showingCurrentPage = entities !== undefined && !query.isPlaceholderData;
  const fullPage = showingCurrentPage && entities.length === filters.limit;
  // The list has no total: a full page may be the last one, which the prefetched next page tells.
  const nextPage = useQuery({
    ...entityQueries.list({ ...filters, start: filters.start + filters.limit }),
    enabled: fullPage,
  });
  const hasNextPage = fullPage && nextPage.data?.length !== 0;

  const activeTab = TYPE_TABS.find((tab) => tab.value === filters.type) ?? TYPE_TABS[0];
  const firstShown = filters.start + 1;
  const lastShown = filters.start + (entities?.length ?? 0);

  const rangeText = query.isPlaceholderData
    ? 'Loading…'
    : entities && entities.length > 0
      ? `Showing ${firstShown}–${lastShown}`
      : '';

  let content;
  if (query.isError && entities === undefined) {
    content = (
      <ErrorState
        title="The entities could not be loaded"
        message={query.error.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (entities === undefined) {
    content = (
      <>
        <VisuallyHidden role="status">Loading entities…</VisuallyHidden>
        <EntityTableSkeleton
          rows={Math.min(filters.limit, 10)}
          showDocuments={filters.supportingDocuments}
        />
      </>
    );
  } else if (entities.length === 0 && filters.start > 0) {
    content = (
      <EmptyState
        title="No more entities"
        description="This page is past the end of the list."
        action={
          <Button variant="light" onClick={() => updateFilters({ start: 0 })}>
            Back to first page
          </Button>
        }
      />
    );
  } else if (entities.length === 0) {
    content = (
      <EmptyState
        title={activeTab?.emptyTitle ?? 'No entities yet'}
        description="Entities appear here once they are onboarded."
      />
    );
  } else {
    content = (
      <EntityTable
        entities={entities}
        showDocuments={filters.supportingDocuments}
        busy={query.isPlaceholderData}
      />
    );
  }

  return (
    <Stack gap="md">
      <Title order={1}>Entities</Title>
      <Tabs
        value={filters.type}
        onChange={(value) => {
          if (isTypeFilter(value)) updateFilters({ type: value, start: 0 });
        }}
        keepMounted={false}
      >
        <Tabs.List aria-label="Entity type">
          {TYPE_TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TYPE_TABS.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            <Stack gap="md">
              <Group justify="space-between" align="end" wrap="wrap" gap="md">
                <Group align="end" gap="lg" wrap="wrap">
                  <NativeSelect
                    label="Order"
                    value={filters.descending ? 'newest' : 'oldest'}
                    onChange={(event) =>
                      updateFilters({
                        descending: event.currentTarget.value === 'newest',
                        start: 0,
                      })
                    }
                    data={[
                      { value: 'oldest', label: 'Oldest first' },
                      { value: 'newest', label: 'Newest first' },
                    ]}
                    w={160}
                  />
                  <Switch
                    label="Include verifications"
                    checked={filters.corporateVerification}
                    onChange={(event) =>
                      updateFilters({ corporateVerification: event.currentTarget.checked })
                    }
                    mb={8}
                  />
                  <Switch
                    label="Include documents"
                    checked={filters.supportingDocuments}
                    onChange={(event) =>
                      updateFilters({ supportingDocuments: event.currentTarget.checked })
                    }
                    mb={8}
                  />
                </Group>
                {/* Wraps on a phone, so Previous and Next stay on screen. */}
                <Group align="end" gap="sm" wrap="wrap">
                  <NativeSelect
                    label="Rows per page"
                    value={String(filters.limit)}
                    onChange={(event) =>
                      updateFilters({ limit: Number(event.currentTarget.value), start: 0 })
                    }
                    data={PAGE_SIZES.map(String)}
                    w={120}
                  />
                  <Text
                    size="sm"
                    c="dimmed"
                    role="status"
                    aria-live="polite"
                    miw={110}
                    ta="right"
                    mb={8}
                  >
                    {rangeText}
                  </Text>
                  <Group gap="sm" wrap="nowrap">
                    <Button
                      variant="default"
                      leftSection={<IconChevronLeft size={16} aria-hidden />}
                      disabled={filters.start === 0}
                      onClick={() =>
                        updateFilters({ start: Math.max(0, filters.start - filters.limit) })
                      }
                    >
                      Previous
                    </Button>
                    <Button
                      variant="default"
                      rightSection={<IconChevronRight size={16} aria-hidden />}
                      disabled={!hasNextPage}
                      onClick={() => updateFilters({ start: filters.start + filters.limit })}
                    >
                      Next
                    </Button>
                  </Group>
                </Group>
              </Group>
              {content}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
