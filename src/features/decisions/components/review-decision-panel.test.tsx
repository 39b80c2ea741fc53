import { screen, waitFor, within } from '@testing-library/react';
import {
  defaultNextReviewDate,
  recordVerificationSchema,
  type PendingVerification,
} from '../../../../contract/decisions.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ReviewDecisionPanel, type ReviewDecisionPanelProps } from './review-decision-panel.tsx';
import { formatDate } from '../../../lib/format.ts';

// Mantine's Select and Modal under jsdom on a shared 2-core machine can take seconds per step.
vi.setConfig({ testTimeout: 60_000 });

const ENTITY_ID = 'le-1';
const today = new Date().toISOString().slice(0, 10);

type HeldOutcome = Extract<PendingVerification, { kind: 'verification' }>;

function pending(overrides: Partial<HeldOutcome> = {}): HeldOutcome {
  return {
    id: 'pv-1',
    kind: 'verification',
    entityId: ENTITY_ID,
    verification: {
      legalEntityVerification: true,
      verificationStatus: 'Accepted',
      verificationDate: '2026-06-15',
      verificationSource: 'Companies House',
      businessStatement: 'Holding company.',
      nextReviewDate: '2027-06-15',
      verificationIssues: [],
    },
    rule: 'high',
    requestedBy: 'alice',
    requestedAt: '2026-06-15T09:30:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    ...overrides,
  };
}

function renderPanel(props: Partial<ReviewDecisionPanelProps> = {}) {
  const onEntityChanged = vi.fn(() => Promise.resolve());
  const view = renderRoute(
    <ReviewDecisionPanel
      entityId={ENTITY_ID}
      riskLevel="High"
      username="bob"
      fourEyes="high"
      onEntityChanged={onEntityChanged}
      {...props}
    />,
  );
  return { ...view, onEntityChanged };
}

test('while held decisions load, the outcome row keeps its place, covered and out of reach', async () => {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', async () => {
      await answered;
      return envelope([]);
    }),
  );
  renderPanel();
  const loading = await screen.findByRole('status', { name: 'Loading decisions' });
  // The same row as after loading, so the page below does not move when it arrives.
  expect(loading).toHaveTextContent('The outcome becomes the entity’s KYC status');
  const covered = within(loading).getByText('Record outcome').closest('[inert]');
  expect(covered).toHaveAttribute('aria-hidden', 'true');
  expect(screen.queryByRole('button', { name: 'Record outcome' })).not.toBeInTheDocument();

  answer();
  expect(await screen.findByRole('button', { name: 'Record outcome' })).toBeEnabled();
  expect(screen.queryByRole('status', { name: 'Loading decisions' })).not.toBeInTheDocument();
});

test('records an outcome with the next review defaulted from the risk level, validated by the shared schema', async () => {
  let sent: unknown;
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities/:id/verifications', async ({ request }) => {
      sent = await request.json();
      return envelope(
        {
          state: 'applied',
          verification: { id: 'v-9', ...recordVerificationSchema.parse(sent) },
          kycStatus: 'Review',
          nextKYCReview: defaultNextReviewDate(today, 'Medium'),
        },
        201,
      );
    }),
  );
  const { user, onEntityChanged } = renderPanel({ riskLevel: 'Medium' });
  await user.click(await screen.findByRole('button', { name: 'Record outcome' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record review outcome' });
  expect(within(dialog).getByLabelText(/next review date/i)).toHaveValue(
    formatDate(defaultNextReviewDate(today, 'Medium')),
  );
  expect(within(dialog).getByText(/Medium risk: 2 years from today/)).toBeInTheDocument();

  // Nothing chosen yet: the shared schema's messages land on the fields.
  await user.click(within(dialog).getByRole('button', { name: 'Record outcome' }));
  expect(await within(dialog).findAllByText(/invalid option|expected/i)).not.toHaveLength(0);
  expect(sent).toBeUndefined();

  await user.click(within(dialog).getByRole('combobox', { name: 'Outcome' }));
  await user.click(await screen.findByRole('option', { name: 'Review' }));
  await user.type(within(dialog).getByLabelText(/source/i), 'Companies House');
  await user.type(within(dialog).getByLabelText(/issues/i), 'Late accounts\n\nNew director');
  await user.click(within(dialog).getByRole('button', { name: 'Record outcome' }));

  await waitFor(() => expect(onEntityChanged).toHaveBeenCalled());
  expect(sent).toEqual({
    verificationStatus: 'Review',
    verificationDate: today,
    verificationSource: 'Companies House',
    businessStatement: '',
    nextReviewDate: defaultNextReviewDate(today, 'Medium'),
    verificationIssues: ['Late accounts', 'New director'],
    legalEntityVerification: true,
  });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('warns that accepting a High-risk entity needs a second reviewer, and shows a server refusal', async () => {
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities/:id/verifications', () =>
      apiError(409, 'A decision on this entity is waiting for a second reviewer.'),
    ),
  );
  const { user } = renderPanel();
  expect(
    await screen.findByText(/Accepting this entity needs a second reviewer/),
  ).toBeInTheDocument();
  await user.click(await screen.findByRole('button', { name: 'Record outcome' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record review outcome' });
  await user.click(within(dialog).getByRole('combobox', { name: 'Outcome' }));
  await user.click(await screen.findByRole('option', { name: 'Accepted' }));
  expect(within(dialog).getByText(/waits for a second reviewer/)).toBeInTheDocument();
  await user.type(within(dialog).getByLabelText(/source/i), 'Registry');
  await user.click(within(dialog).getByRole('button', { name: 'Record outcome' }));
  expect(await within(dialog).findByText(/waiting for a second reviewer/)).toBeInTheDocument();
  expect(within(dialog).getByText('The outcome was not recorded')).toBeInTheDocument();
});

test('its author sees "Waiting for a second reviewer" and no Confirm or Reject', async () => {
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () =>
      envelope([pending()]),
    ),
  );
  renderPanel({ username: 'alice' });
  expect(await screen.findByText('Waiting for a second reviewer')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Record outcome' })).not.toBeInTheDocument();
});

test('the held decision names who recorded it by display name, or by username when unknown', async () => {
  let current = [pending({ requestedByName: 'Alice Archer' })];
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () =>
      envelope(current),
    ),
  );
  const { unmount } = renderPanel();
  const held = await screen.findByRole('group', { name: 'Decision waiting for a second reviewer' });
  expect(held).toHaveTextContent('recorded by Alice Archer (alice)');
  unmount();
  current = [pending({ requestedByName: null })];
  renderPanel();
  expect(
    await screen.findByRole('group', { name: 'Decision waiting for a second reviewer' }),
  ).toHaveTextContent('recorded by alice on');
});

test('another reviewer confirms, or rejects with a reason', async () => {
  let current = [pending()];
  let rejectedWith: unknown;
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () =>
      envelope(current),
    ),
    apiHandler('POST /api/v2/pending-verifications/:id/reject', async ({ request }) => {
      rejectedWith = await request.json();
      current = [];
      return envelope(pending({ state: 'rejected', decidedBy: 'bob', reason: 'No evidence' }));
    }),
  );
  const { user, onEntityChanged } = renderPanel();
  expect(await screen.findByText('A decision needs your confirmation')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Reject' }));
  await user.click(screen.getByRole('button', { name: 'Reject decision' }));
  expect(screen.getByText('Give a reason for rejecting the decision.')).toBeInTheDocument();
  await user.type(screen.getByLabelText(/reason for rejecting/i), 'No evidence');
  await user.click(screen.getByRole('button', { name: 'Reject decision' }));
  await waitFor(() => expect(rejectedWith).toEqual({ reason: 'No evidence' }));
  expect(await screen.findByRole('button', { name: 'Record outcome' })).toBeInTheDocument();
  expect(onEntityChanged).toHaveBeenCalled();
});

test('a refused confirmation (the four-eyes 403) is shown', async () => {
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () =>
      envelope([pending()]),
    ),
    apiHandler('POST /api/v2/pending-verifications/:id/confirm', () =>
      apiError(403, 'Four-eyes rule: a decision must be confirmed by another account.'),
    ),
  );
  const { user } = renderPanel();
  await user.click(await screen.findByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText(/Four-eyes rule/)).toBeInTheDocument();
});
