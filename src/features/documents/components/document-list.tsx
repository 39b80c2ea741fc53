import { Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { DocumentMetadata } from '../../../contract/entities.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { ApprovalBadge } from './approval-badge.tsx';
import { DecisionControls, DecisionSummary } from './document-decision.tsx';

export function DocumentList({
  documents,
  onView,
  onDecided,
}: {
  documents: DocumentMetadata[];
  onView: (document: DocumentMetadata) => void;
  /** Present where the server takes document decisions: Approve and Reject show then. */
  onDecided?: (() => Promise<unknown>) | undefined;
}) {
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
              </Table.Td>
              <Table.Td>{document.type ?? '—'}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDate(document.dateReceived)}
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <ApprovalBadge
                    approved={document.documentApproved}
                    rejected={document.decision?.approved === false}
                  />
                  <DecisionSummary document={document} />
                </Stack>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {document.fileSize == null ? '—' : formatBytes(document.fileSize)}
              </Table.Td>
              <Table.Td ta="right">
                <Stack gap="xs" align="flex-end">
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconEye size={14} aria-hidden />}
                    aria-label={`View ${document.fileName}`}
                    onClick={() => onView(document)}
                  >
                    View
                  </Button>
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
