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
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type {
  ClientResponse,
  ClientUpdateRecord,
  ContactChange,
  ContactField,
} from '../../../../contract/client-updates.ts';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { clientUpdateQueries } from '../api/client-update-queries.ts';
import { useDecideContact } from '../api/use-decide-contact.ts';
import { useMarkResponseReviewed } from '../api/use-mark-response-reviewed.ts';

export interface ClientResponsePanelProps {
  entityId: string;
  /** An account that may not act (an auditor, a reader): the response without its buttons. */
  readOnly: boolean;
  /** The documents feature's decision (summary and, for an actor, Approve/Reject), composed by the page. */
  renderDocumentDecision: (document: DocumentMetadata) => ReactNode;
  /** After a contact decision or Mark reviewed: refreshes the record, the queue and the activity. */
  onChanged: () => Promise<unknown>;
}

/**
 * The clients' answers waiting for a reviewer (requests in `submitted`), shown on top of the
 * entity page; nothing when no answer waits (the request history below says the rest).
 */
export function ClientResponsePanel(props: ClientResponsePanelProps) {
  const history = useQuery(clientUpdateQueries.history(props.entityId));
  const waiting = (history.data ?? []).filter((record) => record.state === 'submitted');
  if (waiting.length === 0) return null;
  return (
    <Stack gap="md" mb="lg">
      {waiting.map((record) => (
        <ResponseCard key={record.requestId} record={record} {...props} />
      ))}
    </Stack>
  );
}

function ResponseCard({
  record,
  entityId,
  readOnly,
  renderDocumentDecision,
  onChanged,
}: ClientResponsePanelProps & { record: ClientUpdateRecord }) {
  const response = useQuery(clientUpdateQueries.response(entityId, record.requestId));
  const configs = useQuery(clientUpdateQueries.configs());
  const configName = configs.data?.configs.find(
    (config) => config.configId === record.configId,
  )?.name;
  const headingId = `client-response-${record.requestId}`;

  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      padding="md"
      style={{ borderColor: 'var(--mantine-color-orange-6)' }}
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Group gap="xs" justify="space-between" align="center">
            <Title order={2} size="h4" id={headingId}>
              Client response
            </Title>
            <Badge color="orange" variant="light" tt="none">
              Waiting for review
            </Badge>
          </Group>
          <Text size="sm">
            <Text span fw={500}>
              Asked:
            </Text>{' '}
            {record.subject}
            {configName ? ` (${configName})` : ''}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Answered by {record.recipientEmail}
            {record.submittedAt ? `, ${formatDateTime(record.submittedAt)}` : ''}
          </Text>
        </Stack>
        {response.isPending ? (
          <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading the client's response">
            <Skeleton h={28} />
            <Skeleton h={28} />
          </Stack>
        ) : response.isError ? (
          <ErrorState
            title="The client's response could not be loaded"
            message={response.error.message}
            onRetry={() => void response.refetch()}
            retrying={response.isFetching}
          />
        ) : (
          <ResponseBody
            response={response.data}
            entityId={entityId}
            readOnly={readOnly}
            renderDocumentDecision={renderDocumentDecision}
            onChanged={onChanged}
          />
        )}
        <MarkReviewed
          record={record}
          entityId={entityId}
          readOnly={readOnly}
          undecided={response.data?.documents.filter((document) => !document.decision).length ?? 0}
          contactOpen={Boolean(response.data?.contact.length && !response.data.contactOutcome)}
          onChanged={onChanged}
        />
      </Stack>
    </Card>
  );
}

function ResponseBody({
  response,
  entityId,
  readOnly,
  renderDocumentDecision,
  onChanged,
}: Omit<ClientResponsePanelProps, 'entityId'> & {
  response: ClientResponse | null;
  entityId: string;
}) {
  if (!response || (response.documents.length === 0 && response.contact.length === 0)) {
    return (
      <Text size="sm" c="dimmed">
        The answer holds no documents or contact corrections to review here.
      </Text>
    );
  }
  return (
    <>
      {response.documents.length > 0 && (
        <ClientDocuments
          documents={response.documents}
          renderDocumentDecision={renderDocumentDecision}
        />
      )}
      {response.contact.length > 0 && (
        <ContactCorrections
          response={response}
          entityId={entityId}
          readOnly={readOnly}
          onChanged={onChanged}
        />
      )}
    </>
  );
}

function ClientDocuments({
  documents,
  renderDocumentDecision,
}: {
  documents: DocumentMetadata[];
  renderDocumentDecision: (document: DocumentMetadata) => ReactNode;
}) {
  return (
    <Stack gap="xs" component="section" aria-label="Documents from the client">
      <Title order={3} size="h5">
        Documents
      </Title>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
        {documents.map((document) => (
          <Card component="li" key={document.documentId} withBorder padding="sm" radius="sm">
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={4} miw={0} style={{ flex: '1 1 14rem' }}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {document.fileName}
                </Text>
                {document.type ? (
                  <Text size="xs" c="dimmed">
                    {document.type}
                  </Text>
                ) : null}
                <DocumentState document={document} />
              </Stack>
              <div style={{ flex: '0 1 auto', minWidth: 0 }}>
                {renderDocumentDecision(document)}
              </div>
            </Group>
          </Card>
        ))}
      </Stack>
      <Text size="xs" c="dimmed">
        View them under Documents; a decision here is the same as there.
      </Text>
    </Stack>
  );
}

function DocumentState({ document }: { document: DocumentMetadata }) {
  if (!document.decision) {
    return (
      <Badge color="orange" variant="light" tt="none" w="fit-content">
        From the client, not yet reviewed
      </Badge>
    );
  }
  return document.decision.approved ? (
    <Badge color="green" variant="light" tt="none" w="fit-content">
      From the client, approved
    </Badge>
  ) : (
    <Badge color="red" variant="light" tt="none" w="fit-content">
      From the client, rejected
    </Badge>
  );
}

const FIELD_LABELS: Record<ContactField, string> = {
  email: 'E-mail',
  phone: 'Phone',
  address: 'Address',
};

/** Below Mantine's `sm` breakpoint the three columns no longer fit: one card per field. */
const PHONE_WIDTH = '(max-width: 47.99em)';

function ContactCorrections({
  response,
  entityId,
  readOnly,
  onChanged,
}: {
  response: ClientResponse;
  entityId: string;
  readOnly: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const decide = useDecideContact(entityId, response.requestId);
  const phone = useMediaQuery(PHONE_WIDTH);

  function decideContact(action: 'apply' | 'dismiss') {
    decide.mutate(
      { action },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            title: action === 'apply' ? 'Contact details updated' : 'Corrections dismissed',
            message:
              action === 'apply'
                ? "The client's corrections are on the record."
                : 'The record is unchanged.',
          });
          void onChanged();
        },
      },
    );
  }

  return (
    <Stack gap="xs" component="section" aria-label="Contact corrections from the client">
      <Title order={3} size="h5">
        Contact details
      </Title>
      {phone ? (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {response.contact.map((change) => (
            <Card component="li" key={change.field} withBorder padding="sm" radius="sm">
              <Text size="sm" fw={500}>
                {FIELD_LABELS[change.field]}
              </Text>
              <Text size="xs" c="dimmed">
                On record
              </Text>
              <CurrentValue change={change} />
              <Text size="xs" c="dimmed" mt={4}>
                From the client
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {change.proposed}
              </Text>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table verticalSpacing="xs" aria-label="Contact corrections">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Field</Table.Th>
              <Table.Th scope="col">On record</Table.Th>
              <Table.Th scope="col">From the client</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {response.contact.map((change) => (
              <Table.Tr key={change.field}>
                <Table.Th scope="row" fw={500}>
                  {FIELD_LABELS[change.field]}
                </Table.Th>
                <Table.Td>
                  <CurrentValue change={change} />
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm" fw={500}>
                    {change.proposed}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {response.contactOutcome ? (
        <Text size="sm" c="dimmed">
          {response.contactOutcome === 'applied' ? 'Applied' : 'Dismissed'}
          {response.contactDecidedBy ? ` by ${response.contactDecidedBy}` : ''}
          {response.contactDecidedAt ? `, ${formatDateTime(response.contactDecidedAt)}` : ''}
        </Text>
      ) : readOnly ? (
        <Text size="sm" c="dimmed">
          Not applied yet.
        </Text>
      ) : (
        <Group gap="xs">
          <Button
            size="xs"
            onClick={() => decideContact('apply')}
            loading={decide.isPending && decide.variables.action === 'apply'}
            disabled={decide.isPending}
            aria-label="Apply the client's contact corrections to the record"
          >
            Apply
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => decideContact('dismiss')}
            loading={decide.isPending && decide.variables.action === 'dismiss'}
            disabled={decide.isPending}
            aria-label="Dismiss the client's contact corrections"
          >
            Dismiss
          </Button>
        </Group>
      )}
      {decide.isError && (
        <Alert color="red" variant="light" title="The contact details were not changed">
          {decide.error.message}
        </Alert>
      )}
    </Stack>
  );
}

function CurrentValue({ change }: { change: ContactChange }) {
  return change.current === null || change.current === '' ? (
    <Text size="sm" c="dimmed" fs="italic">
      None
    </Text>
  ) : (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {change.current}
    </Text>
  );
}

function MarkReviewed({
  record,
  entityId,
  readOnly,
  undecided,
  contactOpen,
  onChanged,
}: {
  record: ClientUpdateRecord;
  entityId: string;
  readOnly: boolean;
  undecided: number;
  contactOpen: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const markReviewed = useMarkResponseReviewed(entityId);
  if (readOnly) return null;
  const open = [
    undecided > 0 && `${undecided} document${undecided === 1 ? '' : 's'} undecided`,
    contactOpen && 'contact corrections not applied or dismissed',
  ].filter((part): part is string => Boolean(part));

  function review() {
    // mutateAsync, not mutate's callbacks: the refetched history unmounts this card before they run.
    markReviewed.mutateAsync(record.requestId).then(
      () => {
        notifications.show({
          color: 'green',
          title: 'Response reviewed',
          message: 'The update request is closed.',
        });
        void onChanged();
      },
      // Shown through markReviewed.error below.
      () => undefined,
    );
  }

  return (
    <Stack gap="xs">
      <Group gap="sm" align="center">
        <Button
          onClick={review}
          loading={markReviewed.isPending}
          aria-label={`Mark the response of ${record.recipientEmail} reviewed`}
        >
          Mark reviewed
        </Button>
        {open.length > 0 && (
          <Text size="xs" c="dimmed">
            Still open: {open.join(', ')}.
          </Text>
        )}
      </Group>
      {markReviewed.isError && (
        <Alert color="red" variant="light" title="The response was not marked reviewed">
          {markReviewed.error.message}
        </Alert>
      )}
    </Stack>
  );
}
