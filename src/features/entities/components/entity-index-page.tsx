import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type SyntheticEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { CsvExportButton } from '../../../components/csv-export-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { EntityIndexRow } from '../../../../contract/entity-index.ts';
import { COUNTRY_CODES } from '../../../../contract/countries.ts';
import { KYC_STATUSES, RISK_LEVELS } from '../../../../contract/entities.ts';
import { countryName } from '../../../lib/format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import {
  downloadEntityIndexCsv,
  entityIndexQueries,
  type EntityIndexView,
} from '../api/entity-index-queries.ts';
import {
  INDEX_PAGE_SIZES,
  indexViewFromSearchParams,
  searchParamsFromIndexView,
  SORT_CHOICES,
} from './entity-index-params.ts';
import { RiskLevelBadge } from './risk-level-badge.tsx';

const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'))
  .map((option) => ({ ...option, label: `${option.label} (${option.value})` }));

const numbers = new Intl.NumberFormat('en-GB');

/** Where the page shown starts in the whole list (0-based), kept in the address with its cursor. */
function positionOf(params: URLSearchParams): number {
  const at = params.get('at');
  return at !== null && /^\d{1,9}$/.test(at) ? Number(at) : 0;
}

/** The view lives in the address (shareable, Back works); a page's predecessor in history state. */
function useIndexView() {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const view = useMemo(() => indexViewFromSearchParams(searchParams), [searchParams]);
  const at = positionOf(searchParams);
  // The view last asked for: a change made while the previous navigation is still pending
  // (route loaders run first) builds on it instead of undoing it.
  const requested = useRef(searchParams);
  useEffect(() => {
    requested.current = searchParams;
  }, [searchParams]);
  /** A new filter or order starts again at the first page. */
  const update = (changes: Partial<EntityIndexView>) => {
    const latest = indexViewFromSearchParams(requested.current);
    const { cursor: _cursor, ...rest } = { ...latest, ...changes };
    requested.current = searchParamsFromIndexView(rest);
    setSearchParams(requested.current);
  };
  const goTo = (cursor: string, position: number) => {
    const next = searchParamsFromIndexView({ ...view, cursor });
    next.set('at', String(position));
    setSearchParams(next, { state: { previous: searchParams.toString() } });
  };
  const previous = (location.state as { previous?: unknown } | null)?.previous;
  const goBack = () => {
    if (typeof previous === 'string') setSearchParams(new URLSearchParams(previous));
    else update({});
  };
  return { view, at, update, goTo, goBack };
}

export function EntityIndexPage() {
  useDocumentTitle('Entities');
  const { view, at, update, goTo, goBack } = useIndexView();
  const query = useQuery({ ...entityIndexQueries.page(view), placeholderData: keepPreviousData });
  const page = query.data;
  // The rows are built in a render React can pause between components: at once when the page
  // arrived, they were one long task that held up input (Lighthouse's TBT on a phone).
  const rows = useDeferredValue(page?.data);
  const { limit: _limit, cursor: _cursor, ...filter } = view;
  const rangeText =
    page === undefined || query.isPlaceholderData
      ? 'Loading…'
      : page.data.length === 0
        ? `0 of ${numbers.format(page.total)}`
        : `${numbers.format(at + 1)}–${numbers.format(at + page.data.length)} of ${numbers.format(page.total)}`;

  let content;
  if (query.isError && page === undefined) {
    content = (
      <ErrorState
        title="The entities could not be loaded"
        message={query.error.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (page === undefined) {
    content = <VisuallyHidden role="status">Loading entities…</VisuallyHidden>;
  } else if (page.data.length === 0) {
    content = (
      <EmptyState
        title="No entities match"
        description="Change or clear the filters to see more."
        action={
          <Button variant="light" onClick={() => update({ ...CLEARED })}>
            Clear filters
          </Button>
        }
      />
    );
  } else if (rows === undefined) {
    content = <VisuallyHidden role="status">Loading entities…</VisuallyHidden>;
  } else {
    content = <IndexTable rows={rows} busy={query.isPlaceholderData || rows !== page.data} />;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1}>Entities</Title>
        <CsvExportButton
          label="Export CSV"
          csvExport={{
            download: (options) => downloadEntityIndexCsv(filter, options),
            fileName: `entities-${new Date().toISOString().slice(0, 10)}.csv`,
          }}
        />
      </Group>
      <IndexFilters view={view} update={update} />
      <Group justify="space-between" align="end" wrap="wrap" gap="sm">
        <NativeSelect
          label="Sort by"
          value={`${view.sort}:${view.order}`}
          onChange={(event) => {
            const choice = SORT_CHOICES.find((c) => c.value === event.currentTarget.value);
            if (!choice) return;
            const [sort, order] = choice.value.split(':') as [
              EntityIndexView['sort'],
              EntityIndexView['order'],
            ];
            update({ sort, order });
          }}
          data={SORT_CHOICES}
          w={{ base: '100%', xs: 240 }}
        />
        <Group align="end" gap="sm" wrap="wrap">
          <NativeSelect
            label="Rows per page"
            value={String(view.limit)}
            onChange={(event) => update({ limit: Number(event.currentTarget.value) })}
            data={INDEX_PAGE_SIZES.map(String)}
            w={120}
          />
          <Text size="sm" c="dimmed" role="status" aria-live="polite" miw={120} ta="right" mb={8}>
            {rangeText}
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Button
              variant="default"
              leftSection={<IconChevronLeft size={16} aria-hidden />}
              disabled={view.cursor === undefined}
              onClick={goBack}
            >
              Previous
            </Button>
            <Button
              variant="default"
              rightSection={<IconChevronRight size={16} aria-hidden />}
              disabled={!page?.nextCursor || query.isPlaceholderData}
              onClick={() => {
                if (page?.nextCursor) goTo(page.nextCursor, at + page.data.length);
              }}
            >
              Next
            </Button>
          </Group>
        </Group>
      </Group>
      {content}
    </Stack>
  );
}

const CLEARED = {
  type: 'all',
  kycStatus: undefined,
  riskLevel: undefined,
  country: undefined,
  assignee: undefined,
  q: undefined,
} as const;

function IndexFilters({
  view,
  update,
}: {
  view: EntityIndexView;
  update: (changes: Partial<EntityIndexView>) => void;
}) {
  const [text, setText] = useState(view.q ?? '');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const q = text.trim();
    update({ q: q === '' ? undefined : q });
  };
  const pick = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
    (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined;
  return (
    <Stack gap="sm">
      <form role="search" aria-label="Entities" onSubmit={submit}>
        <Group align="end" gap="sm" wrap="nowrap">
          <TextInput
            label="Name or ID"
            description="The start of a name (a person's last name), or an entity ID or external ID"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={200}
            style={{ flex: 1 }}
          />
          <Button
            type="submit"
            variant="default"
            leftSection={<IconSearch size={16} aria-hidden />}
          >
            Find
          </Button>
        </Group>
      </form>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
        <NativeSelect
          label="Type"
          value={view.type}
          onChange={(event) =>
            update({
              type:
                pick(['all', 'legal-entities', 'natural-persons'], event.currentTarget.value) ??
                'all',
            })
          }
          data={[
            { value: 'all', label: 'All types' },
            { value: 'legal-entities', label: 'Legal entities' },
            { value: 'natural-persons', label: 'Natural persons' },
          ]}
        />
        <NativeSelect
          label="KYC status"
          value={view.kycStatus ?? ''}
          onChange={(event) => update({ kycStatus: pick(KYC_STATUSES, event.currentTarget.value) })}
          data={[{ value: '', label: 'Any status' }, ...KYC_STATUSES]}
        />
        <NativeSelect
          label="Risk level"
          value={view.riskLevel ?? ''}
          onChange={(event) => update({ riskLevel: pick(RISK_LEVELS, event.currentTarget.value) })}
          data={[{ value: '', label: 'Any risk' }, ...RISK_LEVELS]}
        />
        <Select
          label="Country"
          placeholder="Any country"
          searchable
          clearable
          nothingFoundMessage="No such country"
          value={view.country ?? null}
          onChange={(value) => update({ country: pick(COUNTRY_CODES, value) })}
          data={COUNTRY_OPTIONS}
        />
        <NativeSelect
          label="Assignee"
          value={view.assignee ?? ''}
          onChange={(event) =>
            update({
              assignee: event.currentTarget.value === '' ? undefined : event.currentTarget.value,
            })
          }
          data={[
            { value: '', label: 'Anyone' },
            { value: 'me', label: 'Assigned to me' },
            { value: 'none', label: 'Unassigned' },
            ...(view.assignee && !['me', 'none'].includes(view.assignee)
              ? [{ value: view.assignee, label: view.assignee }]
              : []),
          ]}
        />
      </SimpleGrid>
    </Stack>
  );
}

function IndexTable({ rows, busy }: { rows: EntityIndexRow[]; busy: boolean }) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table
        aria-label="Entities"
        aria-busy={busy}
        striped
        highlightOnHover
        verticalSpacing="xs"
        style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Type
            </Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Country
            </Table.Th>
            <Table.Th scope="col">KYC status</Table.Th>
            <Table.Th scope="col" visibleFrom="sm">
              Risk
            </Table.Th>
            <Table.Th scope="col" visibleFrom="xs">
              Next review
            </Table.Th>
            <Table.Th scope="col" visibleFrom="md">
              Assignee
            </Table.Th>
            <Table.Th scope="col" visibleFrom="lg">
              Documents
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.entityId}>
              <Table.Td>
                <Anchor component={Link} to={paths.entity(row.entityId, row.type)} fw={500}>
                  {row.name || row.entityId}
                </Anchor>
              </Table.Td>
              <Table.Td visibleFrom="sm">{row.type}</Table.Td>
              <Table.Td visibleFrom="md">{countryName(row.country)}</Table.Td>
              <Table.Td>
                <StatusBadge status={row.kycStatus} />
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <RiskLevelBadge level={row.riskLevel} />
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <ReviewDateBadge date={row.nextKYCReview} />
              </Table.Td>
              <Table.Td visibleFrom="md">{row.assignee ?? '—'}</Table.Td>
              <Table.Td visibleFrom="lg">{row.documents}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
