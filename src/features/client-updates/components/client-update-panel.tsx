import { Badge, Button, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMailForward } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { ClientUpdateRecord } from '../../../contract/client-updates.ts';
import type { LegalEntity } from '../../../contract/entities.ts';
import { formatDate } from '../../../lib/format.ts';
import { clientUpdateQueries } from '../api/client-update-queries.ts';
import { recipientName, useRecipients, type Recipient } from '../recipients.ts';
import { FindRecipient } from './find-recipient.tsx';
import { RequestUpdateDialog } from './request-update-dialog.tsx';

/**
 * "Request update" and the entity's past update requests, newest first; `readOnly` (an auditor)
 * shows the requests without a way to send one.
 */
export function ClientUpdatePanel({
  entity,
  readOnly = false,
}: {
  entity: LegalEntity;
  readOnly?: boolean;
}) {
  const [opened, dialog] = useDisclosure(false);
  const [chosenIds, setChosenIds] = useState<string[]>([]);
  const recipients = useRecipients(entity, chosenIds);
  const hasRecipients = recipients.length > 0;
  const namesNoOne = (entity.linkedEntities ?? []).length === 0;

  return (
    <Stack gap="md" component="section" aria-labelledby="client-updates-heading">
      <Group justify="space-between" align="center">
        <Title order={2} size="h4" id="client-updates-heading">
          Client updates
        </Title>
        {!readOnly && (
          <Button
            leftSection={<IconMailForward size={16} aria-hidden />}
            onClick={dialog.open}
            disabled={!hasRecipients}
          >
            Request update
          </Button>
        )}
      </Group>
      {namesNoOne && !readOnly && (
        <>
          <Text size="sm" c="dimmed">
            {hasRecipients
              ? 'The record names no person; the people chosen here are offered as recipients.'
              : 'The record names no person: find the one to ask for an update.'}
          </Text>
          <FindRecipient
            onChoose={(id) => {
              setChosenIds((ids) => (ids.includes(id) ? ids : [...ids, id]));
            }}
          />
        </>
      )}
      <UpdateHistory entityId={entity.id} recipients={recipients} readOnly={readOnly} />
      {!readOnly && (
        <RequestUpdateDialog
          opened={opened}
          onClose={dialog.close}
          entity={entity}
          recipients={recipients}
        />
      )}
    </Stack>
  );
}

function UpdateHistory({
  entityId,
  recipients,
  readOnly,
}: {
  entityId: string;
  recipients: Recipient[];
  readOnly: boolean;
}) {
  const history = useQuery(clientUpdateQueries.history(entityId));

  if (history.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading update requests">
        <Skeleton h={28} />
        <Skeleton h={28} />
        <Skeleton h={28} />
      </Stack>
    );
  }
  if (history.isError) {
    return (
      <ErrorState
        title="The update requests could not be loaded"
        message={history.error.message}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      />
    );
  }
  if (history.data.length === 0) {
    return (
      <EmptyState
        title="No update requests yet"
        description={
          readOnly
            ? 'Requests reviewers send are listed here with their delivery status.'
            : 'Requests you send from here are listed with their delivery status.'
        }
      />
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing="xs" aria-label="Update requests">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Recipient</Table.Th>
            <Table.Th scope="col">Subject</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Requested by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {history.data.map((record) => (
            <HistoryRow
              key={record.requestId}
              record={record}
              recipient={recipients.find((candidate) => candidate.id === record.recipientId)}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function HistoryRow({
  record,
  recipient,
}: {
  record: ClientUpdateRecord;
  recipient: Recipient | undefined;
}) {
  const sent = record.status === 'sent';
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {formatDate(record.sentAt ?? record.createdAt)}
      </Table.Td>
      <Table.Td>
        {recipient?.person ? (
          <>
            <Text size="sm">{recipientName(recipient)}</Text>
            <Text size="xs" c="dimmed">
              {record.recipientEmail}
            </Text>
          </>
        ) : (
          <Text size="sm">{record.recipientEmail}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{record.subject}</Text>
      </Table.Td>
      <Table.Td>
        <Badge color={sent ? 'green' : 'red'} variant="light" tt="none">
          {sent ? 'Sent' : 'Failed'}
        </Badge>
        {!sent && record.error && (
          <Text size="xs" c="red" mt={4}>
            {record.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{record.requestedByName ?? record.requestedBy}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
