import { screen, waitFor, within } from '@testing-library/react';
import { defaultNextReviewDate } from '../../../../contract/decisions.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ReviewDecisionPanel } from './review-decision-panel.tsx';
import { formatDate } from '../../../lib/format.ts';

// Mantine's Select and Modal under jsdom on a shared 2-core machine can take seconds per step.
vi.setConfig({ testTimeout: 60_000 });

const PERSON_ID = 'np-1';
const today = new Date().toISOString().slice(0, 10);

function renderPersonPanel(riskLevel: string, readOnly = false) {
  const onEntityChanged = vi.fn(() => Promise.resolve());
  const view = renderRoute(
    <ReviewDecisionPanel
      entityId={PERSON_ID}
      entityKind="person"
      riskLevel={riskLevel}
      username="bob"
      fourEyes="high"
      onEntityChanged={onEntityChanged}
      readOnly={readOnly}
    />,
  );
  return { ...view, onEntityChanged };
}

test("records a person's outcome: next review from the risk level, after today, reason required", async () => {
  let sent: unknown;
  server.use(
    apiHandler('POST /api/v2/entities/natural-persons/:id/reviews', async ({ request }) => {
      sent = await request.json();
      const review = sent as { kycStatus: string; nextKYCReview: string; reason: string };
      return envelope(
        {
          state: 'applied',
          review: {
            id: 'r-1',
            ...review,
            author: 'bob',
            at: `${today}T10:00:00.000Z`,
            state: 'applied',
          },
        },
        201,
      );
    }),
  );
  const { user, onEntityChanged } = renderPersonPanel('Low');
  await user.click(await screen.findByRole('button', { name: 'Record outcome' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record review outcome' });
  const nextReview = within(dialog).getByLabelText(/next review date/i);
  expect(nextReview).toHaveValue(formatDate(defaultNextReviewDate(today, 'Low')));
  expect(within(dialog).getByText(/Low risk: 3 years from today/)).toBeInTheDocument();

  await user.click(within(dialog).getByRole('combobox', { name: 'Outcome' }));
  await user.click(await screen.findByRole('option', { name: 'Review' }));
  await user.clear(nextReview);
  await user.type(nextReview, today);
  await user.click(within(dialog).getByRole('button', { name: 'Record outcome' }));
  expect(
    await within(dialog).findByText('The next review must be after today.'),
  ).toBeInTheDocument();
  expect(await within(dialog).findByText('Give a reason.')).toBeInTheDocument();
  expect(sent).toBeUndefined();

  await user.clear(nextReview);
  await user.type(nextReview, '2099-01-31');
  await user.type(within(dialog).getByLabelText(/reason/i), 'Passport renewed.');
  await user.click(within(dialog).getByRole('button', { name: 'Record outcome' }));
  await waitFor(() => expect(onEntityChanged).toHaveBeenCalled());
  expect(sent).toEqual({
    kycStatus: 'Review',
    nextKYCReview: '2099-01-31',
    reason: 'Passport renewed.',
  });
});

test('a held risk change shows in the panel; the change-risk dialog warns before lowering a High risk', async () => {
  let sent: unknown;
  server.use(
    apiHandler('PUT /api/v2/entities/:id/risk-level', async ({ request }) => {
      sent = await request.json();
      return apiError(409, 'A decision on this entity is waiting for a second reviewer.');
    }),
  );
  const { user } = renderPersonPanel('High');
  await user.click(await screen.findByRole('button', { name: 'Change risk' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change risk level' });
  await user.click(within(dialog).getByRole('combobox', { name: 'Risk level' }));
  await user.click(await screen.findByRole('option', { name: 'Low' }));
  expect(
    within(dialog).getByText(/Lowering a High risk waits for a second reviewer/),
  ).toBeInTheDocument();
  await user.type(within(dialog).getByLabelText(/reason/i), 'Cleared.');
  await user.click(within(dialog).getByRole('button', { name: 'Change risk' }));
  expect(await within(dialog).findByText(/waiting for a second reviewer\./)).toBeInTheDocument();
  expect(sent).toEqual({ riskLevel: 'Low', reason: 'Cleared.' });
});

test('a held risk change by another reviewer can be confirmed; a reader sees it without buttons', async () => {
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons/:id/pending-verifications', () =>
      envelope([
        {
          id: 'pv-2',
          kind: 'risk-level',
          entityId: PERSON_ID,
          riskChange: { from: 'High', to: 'Medium', reason: 'Cleared by compliance.' },
          rule: 'high',
          requestedBy: 'alice',
          requestedAt: '2026-06-15T09:30:00.000Z',
          state: 'pending',
          decidedBy: null,
          decidedAt: null,
          reason: null,
        },
      ]),
    ),
  );
  const reader = renderPersonPanel('High', true);
  expect(await screen.findByText(/Risk High → Medium/)).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
  reader.unmount();
  renderPersonPanel('High');
  expect(await screen.findByText('Cleared by compliance.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
});
