import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import { formatDate } from '../../../lib/format.ts';
import { useDecideDocument } from '../api/use-decide-document.ts';

/** Who decided on the document, when, and why; nothing while undecided. */
export function DecisionSummary({ document }: { document: DocumentMetadata }) {
  const { decision } = document;
  if (!decision) return null;
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {decision.approved ? 'Approved' : 'Rejected'} by {decision.by}, {formatDate(decision.at)}
      {decision.reason ? `: ${decision.reason}` : ''}
    </Text>
  );
}

/** Approve, or reject with a reason (asked for in place); the page refreshes through onDecided. */
export function DecisionControls({
  document,
  onDecided,
}: {
  document: DocumentMetadata;
  onDecided: () => Promise<unknown>;
}) {
  const decide = useDecideDocument(onDecided);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  function approve() {
    decide.mutate({ documentId: document.documentId, decision: { documentApproved: true } });
  }

  function reject() {
    if (reason.trim() === '') {
      setReasonError('Give a reason for rejecting the document.');
      return;
    }
    decide.mutate(
      {
        documentId: document.documentId,
        decision: { documentApproved: false, reason: reason.trim() },
      },
      {
        onSuccess: () => {
          setRejecting(false);
          setReason('');
        },
      },
    );
  }

  const rejected = document.decision?.approved === false;
  return (
    <Stack gap="xs" align="flex-end">
      {rejecting ? (
        <Stack gap="xs" w="100%" miw="14rem">
          <Textarea
            label={`Reason for rejecting ${document.fileName}`}
            required
            rows={2}
            resize="vertical"
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setReasonError(null);
            }}
            error={reasonError}
          />
          <Group gap="xs" justify="flex-end">
            <Button variant="default" size="xs" onClick={() => setRejecting(false)}>
              Cancel
            </Button>
            <Button color="red" size="xs" loading={decide.isPending} onClick={reject}>
              Reject document
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            color="green"
            leftSection={<IconCheck size={14} aria-hidden />}
            aria-label={`Approve ${document.fileName}`}
            disabled={document.documentApproved === true}
            loading={decide.isPending}
            onClick={approve}
          >
            Approve
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconX size={14} aria-hidden />}
            aria-label={`Reject ${document.fileName}`}
            disabled={rejected}
            onClick={() => setRejecting(true)}
          >
            Reject
          </Button>
        </Group>
      )}
      {decide.isError && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={16} aria-hidden />}
          p="xs"
          title="The decision was not saved"
        >
          {decide.error.message}
        </Alert>
      )}
    </Stack>
  );
}
