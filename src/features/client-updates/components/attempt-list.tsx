import { Text } from '@mantine/core';
import type { ClientUpdateAttempt } from '../../../../contract/client-updates.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mailFailureMessage } from '../mail-failure.ts';

const KIND_LABELS: Record<string, string> = {
  first: 'First e-mail',
  resend: 'Sent again',
  reminder: 'Reminder',
};

const OUTCOME_LABELS: Record<string, string> = {
  sent: 'sent',
  failed: 'not delivered',
  sending: 'outcome unknown',
};

/** Every e-mail of a request, oldest first (number, time, outcome), once there is more than one. */
export function AttemptList({ attempts }: { attempts: readonly ClientUpdateAttempt[] }) {
  if (attempts.length < 2) return null;
  return (
    <ol aria-label="E-mails of this request" style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
      {attempts.map((attempt) => (
        <li key={attempt.attempt} value={attempt.attempt}>
          <Text size="xs" c={attempt.outcome === 'failed' ? 'red' : 'dimmed'}>
            {KIND_LABELS[attempt.kind] ?? attempt.kind}, {formatDateTime(attempt.at)}:{' '}
            {OUTCOME_LABELS[attempt.outcome] ?? attempt.outcome}
            {attempt.outcome === 'failed' ? `. ${mailFailureMessage(attempt.error)}` : ''}
          </Text>
        </li>
      ))}
    </ol>
  );
}
