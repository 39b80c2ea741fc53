import { Anchor, Button, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths, type EntityLinkType } from '../../../lib/paths.ts';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { countryName } from '../../../lib/format.ts';
import { toEntityRow, type EntityRow } from './entity-row.ts';
import type { EntityCollection } from '../../../lib/entity-queries.ts';
import { useEntityDetails, type DetailResult } from './use-entity-details.ts';

/** Details are loaded in batches of this many, so a 500-match search does not load 500 records. */
export const RESULTS_BATCH = 25;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

interface ResultColumn {
  header: string;
  cell: (row: EntityRow) => ReactNode;
}

const countryColumn: ResultColumn = {
  header: 'Country',
  cell: (row) => countryName(row.countryCode),
};

/** After the name: what a reviewer tells one match from another, per kind. */
const COLUMNS: Record<EntityCollection, readonly ResultColumn[]> = {
  'legal-entities': [
    {
      header: 'Registration number',
      cell: (row) => (
        <Text size="sm" ff="monospace">
          {row.registrationNumber}
        </Text>
      ),
    },
    countryColumn,
    { header: 'Verification status', cell: (row) => <StatusBadge status={row.status} /> },
    { header: 'Next review', cell: (row) => <ReviewDateBadge date={row.nextReview} /> },
  ],
  'natural-persons': [
    countryColumn,
    { header: 'KYC status', cell: (row) => <StatusBadge status={row.status} /> },
  ],
};

function ResultRow({
  id,
  result,
  columns,
  type,
}: {
  id: string;
  result: DetailResult | undefined;
  columns: readonly ResultColumn[];
  type: EntityLinkType;
}) {
  if (!result) {
    return (
      <Table.Tr aria-busy>
        <Table.Td>
          <VisuallyHidden>Loading {id}</VisuallyHidden>
          <Skeleton height={14} width="70%" radius="sm" />
        </Table.Td>
        {columns.map((_, index) => (
          <Table.Td key={index}>
            <Skeleton height={14} width="60%" radius="sm" />
          </Table.Td>
        ))}
      </Table.Tr>
    );
  }
  if (result.status === 'error') {
    return (
      <Table.Tr>
        <Table.Td>
          <Anchor component={Link} to={paths.entity(id, type)} ff="monospace" size="sm">
            {id}
          </Anchor>
        </Table.Td>
        <Table.Td colSpan={columns.length}>
          <Text size="sm" c="red.8">
            Could not load this entity: {result.message}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  const row = toEntityRow(result.entity);
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.entity(id, type)} fw={500}>
          {row.name}
        </Anchor>
      </Table.Td>
      {columns.map((column) => (
        <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
      ))}
    </Table.Tr>
  );
}

/** The matches of one search, filled in as their details arrive. Give it a `key` per search. */
export function SearchResults({
  collection,
  ids,
}: {
  collection: EntityCollection;
  ids: readonly string[];
}) {
  const [shown, setShown] = useState(RESULTS_BATCH);
  const visibleIds = ids.slice(0, shown);
  const results = useEntityDetails(collection, visibleIds);
  const columns = COLUMNS[collection];
  const loaded = visibleIds.filter((id) => results[id] !== undefined).length;
  const remaining = ids.length - visibleIds.length;

  return (
    <Stack gap="sm">
      <Text fw={500} role="status" aria-live="polite">
        {plural(ids.length, 'match', 'matches')}, {loaded} loaded
      </Text>
      <Table.ScrollContainer minWidth={collection === 'legal-entities' ? 860 : 560}>
        <Table aria-label="Search results" striped verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header} scope="col">
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visibleIds.map((id) => (
              <ResultRow
                key={id}
                id={id}
                result={results[id]}
                columns={columns}
                type={collection === 'natural-persons' ? 'Natural Person' : 'Legal Entity'}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {remaining > 0 ? (
        <Group justify="center">
          <Button
            variant="default"
            onClick={() => setShown((count) => count + RESULTS_BATCH)}
            disabled={loaded < visibleIds.length}
          >
            Show {Math.min(RESULTS_BATCH, remaining)} more
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
