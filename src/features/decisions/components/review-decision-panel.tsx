import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconChecks, IconGauge, IconHourglass, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { DialogOnDemand, useDialogOnDemand } from '../../../components/dialog-on-demand.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { PendingVerification } from '../../../../contract/decisions.ts';
import { formatAccount, formatDate } from '../../../lib/format.ts';
import {
  decisionQueries,
  useConfirmPending,
  useRejectPending,
  type EntityKind,
} from '../api/decision-queries.ts';

// The dialogs (their forms, selects and date picker) load on first use, not with the entity page.
const RecordOutcomeDialog = lazy(() =>
  import('./record-outcome-dialog.tsx').then((module) => ({ default: module.RecordOutcomeDialog })),
);
const PersonReviewDialog = lazy(() =>
  import('./person-review-dialog.tsx').then((module) => ({ default: module.PersonReviewDialog })),
);
const ChangeRiskDialog = lazy(() =>
  import('./change-risk-dialog.tsx').then((module) => ({ default: module.ChangeRiskDialog })),
);

export interface ReviewDecisionPanelProps {
  entityId: string;
  /** A legal entity records verifications; a natural person records reviews. */
  entityKind?: EntityKind;
  riskLevel: string | null | undefined;
  /** The signed-in account: its own pending decision cannot be confirmed by it. */
  username: string;
  /** The running server's FOUR_EYES setting. */
  fourEyes: 'high' | 'all' | 'off';
  /** Refreshes the entity's page (status, next review, verifications) after a decision. */
  onEntityChanged: () => Promise<unknown>;
  /** An account that may not decide (an auditor): held decisions are shown, nothing offered. */
  readOnly?: boolean;
}

/** Recording a review outcome, and a decision waiting for a second reviewer (four-eyes). */
export function ReviewDecisionPanel(props: ReviewDecisionPanelProps) {
  const { entityId, riskLevel, fourEyes, entityKind = 'legal', readOnly = false } = props;
  const dialog = useDialogOnDemand();
  const riskDialog = useDialogOnDemand();
  const pending = useQuery(decisionQueries.pending(entityId, entityKind));
  const acceptNeedsSecondReviewer =
    fourEyes === 'all' || (fourEyes === 'high' && riskLevel === 'High');

  let body;
  // An auditor sees the panel only for a held decision; while that loads, nothing.
  if (readOnly && pending.isPending) return null;
  const outcomeRow = (
    <Group justify="space-between" align="center" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" maw="40rem">
        The outcome becomes the entity’s KYC status and sets its next review date.
        {acceptNeedsSecondReviewer
          ? ' Accepting this entity needs a second reviewer’s confirmation.'
          : ''}
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          leftSection={<IconGauge size={16} aria-hidden />}
          onClick={riskDialog.open}
        >
          Change risk
        </Button>
        <Button leftSection={<IconChecks size={16} aria-hidden />} onClick={dialog.open}>
          Record outcome
        </Button>
      </Group>
    </Group>
  );
  if (pending.isPending) {
    // The row that usually replaces it, covered and inert: as tall at any width, so nothing moves.
    body = (
      <Skeleton visible role="status" aria-label="Loading decisions">
        <div inert aria-hidden>
          {outcomeRow}
        </div>
      </Skeleton>
    );
  } else if (pending.isError) {
    body = (
      <ErrorState
        title="Pending decisions could not be loaded"
        message={pending.error.message}
        onRetry={() => void pending.refetch()}
        retrying={pending.isFetching}
      />
    );
  } else if (pending.data[0]) {
    body = <PendingDecision pending={pending.data[0]} {...props} />;
  } else if (readOnly) {
    return null;
  } else {
    body = outcomeRow;
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-decision-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="review-decision-heading">
          Review decision
        </Title>
        {body}
      </Stack>
      <DialogOnDemand dialog={dialog}>
        {entityKind === 'legal' ? (
          <RecordOutcomeDialog
            opened={dialog.opened}
            onClose={dialog.close}
            entityId={entityId}
            riskLevel={riskLevel}
            acceptNeedsSecondReviewer={acceptNeedsSecondReviewer}
            onEntityChanged={props.onEntityChanged}
          />
        ) : (
          <PersonReviewDialog
            opened={dialog.opened}
            onClose={dialog.close}
            personId={entityId}
            riskLevel={riskLevel}
            acceptNeedsSecondReviewer={acceptNeedsSecondReviewer}
            onEntityChanged={props.onEntityChanged}
          />
        )}
      </DialogOnDemand>
      <DialogOnDemand dialog={riskDialog}>
        <ChangeRiskDialog
          opened={riskDialog.opened}
          onClose={riskDialog.close}
          entityId={entityId}
          riskLevel={riskLevel}
          fourEyes={fourEyes}
          onEntityChanged={props.onEntityChanged}
        />
      </DialogOnDemand>
    </Paper>
  );
}

/** A held decision with Confirm and Reject for another reviewer (also the "Waiting for me" list's rows). */
export function PendingDecision({
  pending,
  entityId,
  username,
  onEntityChanged,
  readOnly = false,
}: Pick<ReviewDecisionPanelProps, 'entityId' | 'username' | 'onEntityChanged' | 'readOnly'> & {
  pending: PendingVerification;
}) {
  const confirm = useConfirmPending(entityId, onEntityChanged);
  const reject = useRejectPending(entityId, onEntityChanged);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const isAuthor = pending.requestedBy === username;

  async function onConfirm() {
    setFailure(null);
    try {
      await confirm.mutateAsync(pending.id);
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        color: 'green',
        title: 'Decision confirmed',
        message: confirmedMessageOf(pending),
      });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Something went wrong. Try again.');
    }
  }

  async function onReject() {
    if (reason.trim() === '') {
      setReasonError('Give a reason for rejecting the decision.');
      return;
    }
    setFailure(null);
    try {
      await reject.mutateAsync({ pendingId: pending.id, reason: reason.trim() });
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        color: 'gray',
        title: 'Decision rejected',
        message: 'The entity stays as it was.',
      });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'Something went wrong. Try again.');
    }
  }

  return (
    <Stack gap="sm" aria-label="Decision waiting for a second reviewer" role="group">
      <Group gap="xs">
        <IconHourglass size={18} aria-hidden />
        <Text fw={600}>
          {isAuthor || readOnly
            ? 'Waiting for a second reviewer'
            : 'A decision needs your confirmation'}
        </Text>
      </Group>
      <HeldDecisionSummary pending={pending} />
      {readOnly ? null : isAuthor ? (
        <Text size="sm" c="dimmed">
          Another reviewer must confirm or reject it before it applies (four-eyes rule).
        </Text>
      ) : rejecting ? (
        <Stack gap="xs">
          <Textarea
            label="Reason for rejecting"
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
          <Group gap="xs">
            <Button color="red" loading={reject.isPending} onClick={() => void onReject()}>
              Reject decision
            </Button>
            <Button variant="default" onClick={() => setRejecting(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap="xs">
          <Button
            leftSection={<IconChecks size={16} aria-hidden />}
            loading={confirm.isPending}
            onClick={() => void onConfirm()}
          >
            Confirm
          </Button>
          <Button
            variant="default"
            color="red"
            leftSection={<IconX size={16} aria-hidden />}
            onClick={() => setRejecting(true)}
          >
            Reject
          </Button>
        </Group>
      )}
      {failure && (
        <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title="Not done">
          {failure}
        </Alert>
      )}
    </Stack>
  );
}

function confirmedMessageOf(pending: PendingVerification): string {
  switch (pending.kind) {
    case 'verification':
      return `Status ${pending.verification.verificationStatus}; next review ${formatDate(pending.verification.nextReviewDate)}.`;
    case 'person-review':
      return `Status ${pending.review.kycStatus}; next review ${formatDate(pending.review.nextKYCReview)}.`;
    case 'risk-level':
      return `Risk ${pending.riskChange.to}.`;
  }
}

/** What is held, by kind: an outcome, a person's review, or a risk change. */
function HeldDecisionSummary({ pending }: { pending: PendingVerification }) {
  const by = (
    <>
      recorded by{' '}
      <Text span fw={600}>
        {formatAccount(pending.requestedBy, pending.requestedByName)}
      </Text>{' '}
      on {formatDate(pending.requestedAt)}
    </>
  );
  const note = (text: string) =>
    text !== '' && (
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    );
  if (pending.kind === 'risk-level') {
    const { from, to, reason } = pending.riskChange;
    return (
      <>
        <Text size="sm" component="div">
          Risk {from} → {to} {by}.
        </Text>
        {note(reason)}
      </>
    );
  }
  if (pending.kind === 'person-review') {
    const { kycStatus, nextKYCReview, reason } = pending.review;
    return (
      <>
        <Text size="sm" component="div">
          <StatusBadge status={kycStatus} /> {by}; next review {formatDate(nextKYCReview)}.
        </Text>
        {note(reason)}
      </>
    );
  }
  const { verification } = pending;
  return (
    <>
      <Text size="sm" component="div">
        <StatusBadge status={verification.verificationStatus} /> {by}; next review{' '}
        {formatDate(verification.nextReviewDate)}, source {verification.verificationSource}.
      </Text>
      {note(verification.businessStatement)}
    </>
  );
}
