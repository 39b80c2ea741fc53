import { Anchor, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { Entity } from '../../../../contract/entities.ts';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { countryName } from '../../../lib/format.ts';
import { toEntityRow } from './entity-row.ts';
import { type DocumentCount, useDocumentCounts } from './use-document-counts.ts';

const COLUMNS = [
  'Name',
  'Type',
  'Country',
  'Registration number',
  'KYC status',
  'Next review',
] as const;

function Head({ showDocuments }: { showDocuments: boolean }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {COLUMNS.map((column) => (
          <Table.Th key={column} scope="col">
            {column}
          </Table.Th>
        ))}
        {showDocuments ? <Table.Th scope="col">Documents</Table.Th> : null}
      </Table.Tr>
    </Table.Thead>
  );
}

interface EntityTableProps {
  entities: readonly Entity[];
  showDocuments: boolean;
  /** True while the next page loads behind the rows still shown. */
  busy?: boolean;
}

export function EntityTable({ entities, showDocuments, busy = false }: EntityTableProps) {
  const uncounted = showDocuments
    ? entities.filter((entity) => entity.supportingDocuments === undefined).map(({ id }) => id)
    : [];
  const fetchedCounts = useDocumentCounts(uncounted);
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table
        aria-label="Entities"
        aria-busy={busy}
        striped
        highlightOnHover
        verticalSpacing="xs"
        style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Head showDocuments={showDocuments} />
        <Table.Tbody>
          {entities.map((entity) => {
            const row = toEntityRow(entity);
            return (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.entity(row.id, row.type)} fw={500}>
                    {row.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.typeLabel}</Table.Td>
                <Table.Td>{countryName(row.countryCode)}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff={row.registrationNumber ? 'monospace' : undefined}>
                    {row.registrationNumber ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={row.status} />
                </Table.Td>
                <Table.Td>
                  <ReviewDateBadge date={row.nextReview} />
                </Table.Td>
                {showDocuments ? (
                  <Table.Td>
                    <DocumentCountCell
                      count={row.documentCount ?? fetchedCounts[row.id]}
                      name={row.name}
                    />
                  </Table.Td>
                ) : null}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A count, a placeholder while it loads, or a dash where the documents could not be listed. */
function DocumentCountCell({ count, name }: { count: DocumentCount | undefined; name: string }) {
  if (count === undefined) {
    return (
      <>
        <Skeleton height={14} width={24} radius="sm" aria-hidden />
        <VisuallyHidden>Counting the documents of {name}</VisuallyHidden>
      </>
    );
  }
  return <>{count ?? '—'}</>;
}

/** Placeholder rows in the table's own shape, so the page does not jump when data arrives. */
export function EntityTableSkeleton({
  rows,
  showDocuments,
}: {
  rows: number;
  showDocuments: boolean;
}) {
  const cells = COLUMNS.length + (showDocuments ? 1 : 0);
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table aria-label="Entities" aria-busy verticalSpacing="xs">
        <Head showDocuments={showDocuments} />
        <Table.Tbody>
          {Array.from({ length: rows }, (_, rowIndex) => (
            <Table.Tr key={rowIndex}>
              {Array.from({ length: cells }, (_, cellIndex) => (
                <Table.Td key={cellIndex}>
                  <Skeleton height={14} radius="sm" width={cellIndex === 0 ? '80%' : '60%'} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
