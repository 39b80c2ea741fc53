import { Button, Card, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEye } from '@tabler/icons-react';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { ApprovalBadge } from './approval-badge.tsx';
import { DecisionControls, DecisionSummary } from './document-decision.tsx';

/** Below Mantine's `sm` breakpoint (48em) the six columns no longer fit: one card per document. */
const PHONE_WIDTH = '(max-width: 47.99em)';

interface DocumentListProps {
  documents: DocumentMetadata[];
  onView: (document: DocumentMetadata) => void;
  /** Present where the server takes document decisions: Approve and Reject show then. */
  onDecided?: (() => Promise<unknown>) | undefined;
}

export function DocumentList(props: DocumentListProps) {
  const phone = useMediaQuery(PHONE_WIDTH);
  return phone ? <DocumentCards {...props} /> : <DocumentTable {...props} />;
}

function DocumentTable({ documents, onView, onDecided }: DocumentListProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="sm" striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">File name</Table.Th>
            <Table.Th scope="col">Type</Table.Th>
            <Table.Th scope="col">Received</Table.Th>
            <Table.Th scope="col">Approval</Table.Th>
            <Table.Th scope="col" ta="right">
              Size
            </Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {documents.map((document) => (
            <Table.Tr key={document.documentId}>
              <Table.Td>
                <FileName document={document} />
              </Table.Td>
              <Table.Td>{document.type ?? '—'}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDate(document.dateReceived)}
              </Table.Td>
              <Table.Td>
                <Approval document={document} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {sizeOf(document)}
              </Table.Td>
              <Table.Td ta="right">
                <Stack gap="xs" align="flex-end">
                  <ViewButton document={document} onView={onView} />
                  {onDecided && <DecisionControls document={document} onDecided={onDecided} />}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The phone layout: each document a card, its details stacked, its actions full width. */
function DocumentCards({ documents, onView, onDecided }: DocumentListProps) {
  return (
    <Stack component="ul" gap="sm" p={0} m={0} aria-label="Documents" style={{ listStyle: 'none' }}>
      {documents.map((document) => (
        <Card component="li" key={document.documentId} withBorder padding="sm" radius="md">
          <Stack gap="xs">
            <FileName document={document} />
            <Text size="sm">
              {document.type ?? 'No type'} · Received {formatDate(document.dateReceived)} ·{' '}
              {sizeOf(document)}
            </Text>
            <Approval document={document} />
            <Group gap="xs" grow>
              <ViewButton document={document} onView={onView} />
            </Group>
            {onDecided && <DecisionControls document={document} onDecided={onDecided} />}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

function FileName({ document }: { document: DocumentMetadata }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {document.fileName}
      </Text>
      {document.description ? (
        <Text size="xs" c="dimmed">
          {document.description}
        </Text>
      ) : null}
    </Stack>
  );
}

function Approval({ document }: { document: DocumentMetadata }) {
  return (
    <Stack gap={4} align="flex-start">
      <ApprovalBadge
        approved={document.documentApproved}
        rejected={document.decision?.approved === false}
      />
      <DecisionSummary document={document} />
    </Stack>
  );
}

function ViewButton({
  document,
  onView,
}: {
  document: DocumentMetadata;
  onView: (document: DocumentMetadata) => void;
}) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconEye size={14} aria-hidden />}
      aria-label={`View ${document.fileName}`}
      onClick={() => onView(document)}
    >
      View
    </Button>
  );
}

function sizeOf(document: DocumentMetadata): string {
  return document.fileSize == null ? '—' : formatBytes(document.fileSize);
}
