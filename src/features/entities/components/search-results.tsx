import { Anchor, Button, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { countryName } from '../../../lib/format.ts';
import { toEntityRow } from './entity-row.ts';
import { useLegalEntityDetails, type DetailResult } from './use-legal-entity-details.ts';

/** Details are loaded in batches of this many, so a 500-match search does not load 500 records. */
export const RESULTS_BATCH = 25;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function ResultRow({ id, result }: { id: string; result: DetailResult | undefined }) {
  if (!result) {
    return (
      <Table.Tr aria-busy>
        <Table.Td>
          <VisuallyHidden>Loading {id}</VisuallyHidden>
          <Skeleton height={14} width="70%" radius="sm" />
        </Table.Td>
        {Array.from({ length: 4 }, (_, index) => (
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
          <Anchor component={Link} to={paths.entity(id)} ff="monospace" size="sm">
            {id}
          </Anchor>
        </Table.Td>
        <Table.Td colSpan={4}>
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
        <Anchor component={Link} to={paths.entity(id)} fw={500}>
          {row.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {row.registrationNumber}
        </Text>
      </Table.Td>
      <Table.Td>{countryName(row.countryCode)}</Table.Td>
      <Table.Td>
        <StatusBadge status={row.status} />
      </Table.Td>
      <Table.Td>
        <ReviewDateBadge date={row.nextReview} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The matches of one search, filled in as their details arrive. Give it a `key` per search. */
export function SearchResults({ ids }: { ids: readonly string[] }) {
  const [shown, setShown] = useState(RESULTS_BATCH);
  const visibleIds = ids.slice(0, shown);
  const results = useLegalEntityDetails(visibleIds);
  const loaded = visibleIds.filter((id) => results[id] !== undefined).length;
  const remaining = ids.length - visibleIds.length;

  return (
    <Stack gap="sm">
      <Text fw={500} role="status" aria-live="polite">
        {plural(ids.length, 'match', 'matches')}, {loaded} loaded
      </Text>
      <Table.ScrollContainer minWidth={860}>
        <Table aria-label="Search results" striped verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Registration number</Table.Th>
              <Table.Th scope="col">Country</Table.Th>
              <Table.Th scope="col">Verification status</Table.Th>
              <Table.Th scope="col">Next review</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {visibleIds.map((id) => (
              <ResultRow key={id} id={id} result={results[id]} />
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
