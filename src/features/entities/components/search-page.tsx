import { Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { SearchForm } from './search-form.tsx';
import {
  companySearch,
  peopleSearch,
  SEARCH_KINDS,
  searchParamsFromQuery,
  searchQueryFromValues,
  tabFromSearchParams,
  valuesFromSearchParams,
  type SearchKind,
  type SearchTab,
} from './search-params.ts';
import { SearchResults } from './search-results.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';

const NO_FIELD_ERRORS: never[] = [];

function isSearchTab(value: string | null): value is SearchTab {
  return SEARCH_KINDS.some((kind) => kind.tab === value);
}

interface SearchPanelProps {
  kind: SearchKind;
  /** This tab's search address: the current one while the tab is active, its last one otherwise. */
  address: string;
  active: boolean;
  navigate: (params: URLSearchParams) => void;
}

function SearchPanel({ kind, address, active, navigate }: SearchPanelProps) {
  const values = useMemo(
    () => valuesFromSearchParams(kind, new URLSearchParams(address)),
    [kind, address],
  );
  // The address is the search: it runs only when it holds something valid to send.
  const query = useMemo(() => {
    const parsed = kind.schema.safeParse(values);
    if (!parsed.success) return null;
    const candidate = searchQueryFromValues(kind, parsed.data);
    return Object.keys(candidate).length > 0 ? candidate : null;
  }, [kind, values]);
  const search = useQuery({
    ...entityQueries.search(kind.collection, query ?? {}),
    enabled: active && query !== null,
  });
  const error = search.error;
  const serverErrors = error instanceof ApiError ? error.fieldErrors : NO_FIELD_ERRORS;
  const resultsKey = searchParamsFromQuery(kind, query ?? {}).toString();

  let results;
  if (query === null) {
    results = (
      <Text c="dimmed" size="sm">
        Fill in any combination of fields. Every field you fill in must match.
      </Text>
    );
  } else if (error) {
    const retryable = !(error instanceof ApiError && error.status >= 400 && error.status < 500);
    results = (
      <ErrorState
        title="The search failed"
        message={error.message}
        {...(retryable
          ? { onRetry: () => void search.refetch(), retrying: search.isFetching }
          : {})}
      />
    );
  } else if (search.data === undefined) {
    results = (
      <Text size="sm" role="status">
        Searching…
      </Text>
    );
  } else if (search.data.length === 0) {
    results = (
      <EmptyState
        title={kind.noMatchTitle}
        description="Check the spelling, or search on fewer fields."
        icon={<IconSearchOff size={28} aria-hidden />}
      />
    );
  } else {
    results = <SearchResults key={resultsKey} collection={kind.collection} ids={search.data} />;
  }

  return (
    <Stack gap="lg">
      <Paper withBorder p="md">
        <SearchForm
          kind={kind}
          values={values}
          searching={search.isFetching}
          serverErrors={serverErrors}
          onSearch={(next) => {
            const params = searchParamsFromQuery(kind, next);
            // The same search again means "look again", since the address would not change.
            if (params.toString() === address) void search.refetch();
            else navigate(params);
          }}
          onClear={() => navigate(searchParamsFromQuery(kind, {}))}
        />
      </Paper>
      <section aria-label={`${kind.tabLabel} results`}>{results}</section>
    </Stack>
  );
}

export function SearchPage() {
  useDocumentTitle('Search');
  const [searchParams, setSearchParams] = useSearchParams();
  const activeTab = tabFromSearchParams(searchParams);
  const address = searchParams.toString();
  // Each tab's last address, so a tab switch brings back what that tab had searched.
  const [tabAddresses, setTabAddresses] = useState(() => ({
    companies: searchParamsFromQuery(companySearch, {}).toString(),
    people: searchParamsFromQuery(peopleSearch, {}).toString(),
    [activeTab]: address,
  }));
  if (tabAddresses[activeTab] !== address) {
    setTabAddresses({ ...tabAddresses, [activeTab]: address });
  }

  return (
    <Stack gap="lg">
      <Title order={1}>Search</Title>
      <Tabs
        value={activeTab}
        onChange={(next) => {
          if (isSearchTab(next)) setSearchParams(new URLSearchParams(tabAddresses[next]));
        }}
      >
        <Tabs.List aria-label="Search in">
          {SEARCH_KINDS.map((kind) => (
            <Tabs.Tab key={kind.tab} value={kind.tab}>
              {kind.tabLabel}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {SEARCH_KINDS.map((kind) => (
          <Tabs.Panel key={kind.tab} value={kind.tab} pt="md">
            <SearchPanel
              kind={kind}
              address={kind.tab === activeTab ? address : tabAddresses[kind.tab]}
              active={kind.tab === activeTab}
              navigate={setSearchParams}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
