import { Paper, Stack, Text, Title } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { entityQueries } from '../api/entity-queries.ts';
import { SearchForm } from './search-form.tsx';
import {
  searchFormSchema,
  searchParamsFromQuery,
  searchQueryFromValues,
  valuesFromSearchParams,
} from './search-params.ts';
import { SearchResults } from './search-results.tsx';

const NO_FIELD_ERRORS: never[] = [];

export function SearchPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = useMemo(() => valuesFromSearchParams(searchParams), [searchParams]);
  // The address is the search: it runs only when it holds something valid to send.
  const query = useMemo(() => {
    const parsed = searchFormSchema.safeParse(values);
    if (!parsed.success) return null;
    const candidate = searchQueryFromValues(parsed.data);
    return Object.keys(candidate).length > 0 ? candidate : null;
  }, [values]);
  const search = useQuery({
    ...entityQueries.search(query ?? {}),
    enabled: query !== null,
  });
  const error = search.error;
  const serverErrors = error instanceof ApiError ? error.fieldErrors : NO_FIELD_ERRORS;
  const resultsKey = searchParamsFromQuery(query ?? {}).toString();

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
        title="No legal entities match"
        description="Check the spelling, or search on fewer fields."
        icon={<IconSearchOff size={28} aria-hidden />}
      />
    );
  } else {
    results = <SearchResults key={resultsKey} ids={search.data} />;
  }

  return (
    <Stack gap="lg">
      <Title order={1}>Search legal entities</Title>
      <Paper withBorder p="md">
        <SearchForm
          values={values}
          searching={search.isFetching}
          serverErrors={serverErrors}
          onSearch={(next) => {
            const params = searchParamsFromQuery(next);
            // The same search again means "look again", since the address would not change.
            if (params.toString() === searchParams.toString()) void search.refetch();
            else setSearchParams(params);
          }}
          onClear={() => setSearchParams(new URLSearchParams())}
        />
      </Paper>
      <section aria-label="Results">{results}</section>
    </Stack>
  );
}
