import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle, IconUsers } from '@tabler/icons-react';

export interface DecisionFormFooterProps {
  /** Shown when the decision will wait for a second reviewer (four-eyes). */
  heldNotice?: string;
  /** The server's refusal, under a title that says what did not happen. */
  failure?: { title: string; message: string } | undefined;
  submitLabel: string;
  submitting: boolean;
  onCancel: () => void;
}

/** The end of every decision dialog: the four-eyes notice, a refusal, Cancel and the action. */
export function DecisionFormFooter(props: DecisionFormFooterProps) {
  return (
    <>
      {props.heldNotice && (
        <Alert color="blue" icon={<IconUsers size={18} aria-hidden />} title="Four-eyes rule">
          {props.heldNotice}
        </Alert>
      )}
      {props.failure && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} aria-hidden />}
          title={props.failure.title}
        >
          {props.failure.message}
        </Alert>
      )}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={props.submitting}>
          {props.submitLabel}
        </Button>
      </Group>
    </>
  );
}

/** The notice of an Accepted outcome that waits for a second reviewer. */
export const HELD_OUTCOME_NOTICE =
  'An Accepted outcome here waits for a second reviewer: it applies once another account confirms it.';
