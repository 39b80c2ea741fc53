import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
import { IconMailForward } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useRef, useState } from 'react';
import { DialogOnDemand, useDialogOnDemand } from '../../../components/dialog-on-demand.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { ClientUpdateRecord, ClientUpdateState } from '../../../../contract/client-updates.ts';
import type { LegalEntity } from '../../../../contract/entities.ts';
import { formatAccount, formatDate, formatDateTime } from '../../../lib/format.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from '../api/client-update-queries.ts';
import { useRemindClientUpdate } from '../api/use-remind-client-update.ts';
import { useResendClientUpdate } from '../api/use-resend-client-update.ts';
import { mailFailureMessage } from '../mail-failure.ts';
import { recipientName, useRecipients, type Recipient } from '../recipients.ts';
import { AttemptList } from './attempt-list.tsx';
import { FindRecipient } from './find-recipient.tsx';

// The request form (its selects and preview) loads when it is first opened, not with the page.
const RequestUpdateDialog = lazy(() =>
  import('./request-update-dialog.tsx').then((module) => ({ default: module.RequestUpdateDialog })),
);

/**
 * "Request update" and the entity's past update requests, newest first; `readOnly` (an auditor)
 * shows the requests without a way to send one.
 */
export function ClientUpdatePanel({
  entity,
  readOnly = false,
  canResend = false,
}: {
  entity: LegalEntity;
  readOnly?: boolean;
  /** The service can send a failed request again (embedded mode): its rows offer Retry. */
  canResend?: boolean;
}) {
  const dialog = useDialogOnDemand();
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
            legalEntityId={entity.id}
            onChoose={(id) => {
              setChosenIds((ids) => (ids.includes(id) ? ids : [...ids, id]));
            }}
          />
        </>
      )}
      <UpdateHistory
        entityId={entity.id}
        recipients={recipients}
        readOnly={readOnly}
        canResend={canResend && !readOnly}
      />
      {!readOnly && (
        <DialogOnDemand dialog={dialog}>
          <RequestUpdateDialog
            opened={dialog.opened}
            onClose={dialog.close}
            entity={entity}
            recipients={recipients}
          />
        </DialogOnDemand>
      )}
    </Stack>
  );
}

function UpdateHistory({
  entityId,
  recipients,
  readOnly,
  canResend,
}: {
  entityId: string;
  recipients: Recipient[];
  readOnly: boolean;
  canResend: boolean;
}) {
  const history = useQuery(clientUpdateQueries.history(entityId));
  const resend = useResendClientUpdate(entityId);
  const [retrying, setRetrying] = useState<string | null>(null);
  const [retryFailure, setRetryFailure] = useState<string | null>(null);
  const remind = useRemindClientUpdate(entityId);
  const [remindFailure, setRemindFailure] = useState<string | null>(null);
  /** One key per reminder a row offers: a double click is the same click to the server. */
  const reminderKeys = useRef(new Map<string, string>());

  function sendReminder(record: ClientUpdateRecord) {
    if (remind.isPending) return;
    const offer = `${record.requestId}:${record.attempts?.length ?? 0}`;
    const idempotencyKey = reminderKeys.current.get(offer) ?? crypto.randomUUID();
    reminderKeys.current.set(offer, idempotencyKey);
    setRemindFailure(null);
    remind.mutate(
      { requestId: record.requestId, idempotencyKey },
      {
        onSuccess: (accepted) => {
          notifications.show({
            color: 'green',
            title: 'Reminder sent',
            message: `The reminder to ${accepted.recipientEmail} is sent.`,
          });
        },
        onError: (error) => {
          // A failed reminder spends its key: the next click is a new attempt.
          reminderKeys.current.delete(offer);
          setRemindFailure(
            error instanceof ApiError && error.status === 502
              ? mailFailureMessage(error.message)
              : error.message,
          );
        },
      },
    );
  }

  async function retry(requestId: string) {
    // One e-mail per click: a click while this request is on its way does nothing.
    if (retrying !== null) return;
    setRetrying(requestId);
    setRetryFailure(null);
    try {
      const accepted = await resend.mutateAsync(requestId);
      notifications.show({
        color: 'green',
        title: 'Update request sent',
        message: `The e-mail to ${accepted.recipientEmail} is sent.`,
      });
    } catch (error) {
      setRetryFailure(
        error instanceof ApiError && error.status === 502
          ? mailFailureMessage(error.message)
          : error instanceof Error
            ? error.message
            : 'Something went wrong. Try again.',
      );
    } finally {
      setRetrying(null);
    }
  }

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
    <Stack gap="xs">
      {remindFailure && (
        <Alert color="red" variant="light" title="The reminder was not sent">
          {remindFailure}
        </Alert>
      )}
      {retryFailure && (
        <Alert color="red" variant="light" title="The update request was not sent again">
          {retryFailure}
        </Alert>
      )}
      <HistoryList
        items={history.data.map((record) => ({
          record,
          recipient: recipients.find((candidate) => candidate.id === record.recipientId),
          onRetry: canResend ? () => void retry(record.requestId) : undefined,
          retrying: retrying === record.requestId,
          retryDisabled: retrying !== null,
          onRemind: canResend ? () => sendReminder(record) : undefined,
          reminding: remind.isPending && remind.variables.requestId === record.requestId,
        }))}
      />
    </Stack>
  );
}

/** Below Mantine's `sm` breakpoint (48em) the five columns no longer fit: one card per request. */
const PHONE_WIDTH = '(max-width: 47.99em)';

interface HistoryItem {
  record: ClientUpdateRecord;
  recipient: Recipient | undefined;
  onRetry: (() => void) | undefined;
  retrying: boolean;
  retryDisabled: boolean;
  /** Offered once the request has waited REMINDER_AFTER_DAYS unanswered (embedded mode). */
  onRemind: (() => void) | undefined;
  reminding: boolean;
}

function HistoryList({ items }: { items: HistoryItem[] }) {
  const phone = useMediaQuery(PHONE_WIDTH);
  if (phone) {
    return (
      <Stack
        component="ul"
        gap="sm"
        p={0}
        m={0}
        aria-label="Update requests"
        style={{ listStyle: 'none' }}
      >
        {items.map((item) => (
          <Card component="li" key={item.record.requestId} withBorder padding="sm" radius="md">
            <Stack gap="xs">
              <Text size="sm" fw={500}>
                {item.record.subject}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDate(item.record.sentAt ?? item.record.createdAt)} · Requested by{' '}
                {requesterOf(item.record)}
              </Text>
              <RecipientCell record={item.record} recipient={item.recipient} />
              <StateCell {...item} />
            </Stack>
          </Card>
        ))}
      </Stack>
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
          {items.map((item) => (
            <Table.Tr key={item.record.requestId}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDate(item.record.sentAt ?? item.record.createdAt)}
              </Table.Td>
              <Table.Td>
                <RecipientCell record={item.record} recipient={item.recipient} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.record.subject}</Text>
              </Table.Td>
              <Table.Td>
                <StateCell {...item} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{requesterOf(item.record)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function requesterOf(record: ClientUpdateRecord): string {
  return formatAccount(record.requestedBy, record.requestedByName);
}

function RecipientCell({
  record,
  recipient,
}: {
  record: ClientUpdateRecord;
  recipient: Recipient | undefined;
}) {
  if (!recipient?.person) return <Text size="sm">{record.recipientEmail}</Text>;
  return (
    <>
      <Text size="sm">{recipientName(recipient)}</Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {record.recipientEmail}
      </Text>
    </>
  );
}

/** The request's state with its times, and what a reviewer can do about it. */
function StateCell({ record, onRetry, retrying, retryDisabled, onRemind, reminding }: HistoryItem) {
  const sent = record.status === 'sent';
  const badge = STATE_BADGES[record.state];
  return (
    <div>
      <Badge color={badge.color} variant="light" tt="none">
        {badge.label}
      </Badge>
      <StateTimes record={record} />
      <AttemptList attempts={record.attempts ?? []} />
      {onRemind && record.reminderDueAt && <Reminder {...{ record, onRemind, reminding }} />}
      {!sent && (
        <Text size="xs" c="red" mt={4}>
          {mailFailureMessage(record.error)}
        </Text>
      )}
      {!sent && onRetry && (
        <Button
          size="compact-xs"
          variant="light"
          mt={4}
          display="block"
          onClick={onRetry}
          loading={retrying}
          disabled={retryDisabled && !retrying}
          aria-label={`Retry the update request to ${record.recipientEmail}`}
        >
          Retry
        </Button>
      )}
    </div>
  );
}

/** "Send reminder" once it is due; until then, from when it will be. */
function Reminder({
  record,
  onRemind,
  reminding,
}: {
  record: ClientUpdateRecord;
  onRemind: () => void;
  reminding: boolean;
}) {
  const [now] = useState(() => Date.now());
  const dueAt = record.reminderDueAt;
  if (!dueAt) return null;
  if (Date.parse(dueAt) > now) {
    return (
      <Text size="xs" c="dimmed" mt={4}>
        Reminder possible from {formatDateTime(dueAt)}
      </Text>
    );
  }
  return (
    <Button
      size="compact-xs"
      variant="light"
      mt={4}
      display="block"
      onClick={onRemind}
      loading={reminding}
      aria-label={`Send a reminder to ${record.recipientEmail}`}
    >
      Send reminder
    </Button>
  );
}

/** What each state reads as; `submitted` stands out, as it waits for a reviewer. */
const STATE_BADGES: Record<ClientUpdateState, { label: string; color: string }> = {
  sent: { label: 'Sent', color: 'blue' },
  opened: { label: 'Opened', color: 'cyan' },
  submitted: { label: 'Response received', color: 'orange' },
  reviewed: { label: 'Reviewed', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  expired: { label: 'Expired', color: 'gray' },
};

/** Each step the request has passed, with its time: the history says when, not only where. */
function StateTimes({ record }: { record: ClientUpdateRecord }) {
  const lapsed = record.state === 'expired';
  const waiting = record.state === 'sent' || record.state === 'opened';
  const steps = [
    record.openedAt && `Opened ${formatDateTime(record.openedAt)}`,
    record.submittedAt && `Answered ${formatDateTime(record.submittedAt)}`,
    record.reviewedAt &&
      `Reviewed ${formatDateTime(record.reviewedAt)}${record.reviewedBy ? ` by ${record.reviewedBy}` : ''}`,
    record.expiresAt &&
      (lapsed || waiting) &&
      `${lapsed ? 'Link lapsed' : 'Link works until'} ${formatDateTime(record.expiresAt)}`,
  ].filter((step): step is string => Boolean(step));
  if (steps.length === 0) return null;
  return (
    <Stack gap={0} mt={4}>
      {steps.map((step) => (
        <Text key={step} size="xs" c="dimmed">
          {step}
        </Text>
      ))}
    </Stack>
  );
}
