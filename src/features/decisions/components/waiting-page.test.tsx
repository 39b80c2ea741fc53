import { notifications } from '@mantine/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { WaitingDecision, WaitingDecisionsPage } from '../../../../contract/decisions.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { WaitingPage } from './waiting-page.tsx';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  // Unmount first: cleaning the notifications store notifies whatever is still rendered.
  cleanup();
  notifications.clean();
});

function heldOutcome(id: string, entityName: string, requestedAt: string): WaitingDecision {
  return {
    id,
    kind: 'verification',
    entityId: `le-${id}`,
    entityName,
    entityType: 'Legal Entity',
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
    requestedAt,
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    reason: null,
  };
}

function heldRiskChange(id: string, entityName: string, requestedAt: string): WaitingDecision {
  return {
    id,
    kind: 'risk-level',
    entityId: `np-${id}`,
    entityName,
    entityType: 'Natural Person',
    riskChange: { from: 'Low', to: 'High', reason: 'Adverse media' },
    rule: 'all',
    requestedBy: 'alex',
    requestedAt,
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    reason: null,
  };
}

function waitingPage(items: WaitingDecision[]): WaitingDecisionsPage {
  return { ...envelope(items), nextCursor: null, total: items.length };
}

/** The server's waiting list: confirmed or rejected ones leave it, as on the server. */
function serveWaiting(initial: WaitingDecision[]) {
  const state = { items: initial, confirmed: [] as string[], rejected: [] as unknown[] };
  server.use(
    apiHandler('GET /api/v2/pending-verifications', () => waitingPage(state.items)),
    apiHandler('POST /api/v2/pending-verifications/:id/confirm', ({ params }) => {
      const held = state.items.find((one) => one.id === params.id);
      if (!held || held.kind !== 'verification') return apiError(404, 'No such decision.');
      state.items = state.items.filter((one) => one !== held);
      state.confirmed.push(held.id);
      return envelope({
        kind: 'verification',
        state: 'applied',
        verification: { id: 'v-1', ...held.verification },
        kycStatus: 'Accepted',
        nextKYCReview: held.verification.nextReviewDate,
      });
    }),
    apiHandler('POST /api/v2/pending-verifications/:id/reject', async ({ params, request }) => {
      const held = state.items.find((one) => one.id === params.id);
      if (!held) return apiError(404, 'No such decision.');
      state.items = state.items.filter((one) => one !== held);
      const body = (await request.json()) as { reason: string };
      state.rejected.push({ id: held.id, ...body });
      const { entityName: _name, entityType: _type, ...pending } = held;
      return envelope({ ...pending, state: 'rejected', decidedBy: 'dana', reason: body.reason });
    }),
  );
  return state;
}

function renderWaiting() {
  const onEntityChanged = vi.fn(() => Promise.resolve());
  const view = renderRoute(<WaitingPage username="dana" onEntityChanged={onEntityChanged} />, {
    path: '/waiting-for-me',
  });
  return { ...view, onEntityChanged };
}

test('lists held decisions oldest first, with the entity, who recorded it and when', async () => {
  serveWaiting([
    heldOutcome('pv-1', 'Acme Holdings Ltd', '2026-06-14T08:00:00.000Z'),
    heldRiskChange('pv-2', 'Ada Byrne', '2026-06-15T09:30:00.000Z'),
  ]);
  renderWaiting();

  const items = await screen.findAllByRole('listitem');
  expect(items).toHaveLength(2);
  const [first, second] = items;
  if (!first || !second) throw new Error('expected two decisions');
  expect(within(first).getByRole('link', { name: 'Acme Holdings Ltd' })).toHaveAttribute(
    'href',
    '/entities/le-pv-1',
  );
  expect(first).toHaveTextContent('Review outcome');
  expect(first).toHaveTextContent('Legal entity');
  expect(first).toHaveTextContent('recorded by alice');
  expect(first).toHaveTextContent(/Held since 14 Jun 2026/);
  expect(within(second).getByRole('link', { name: 'Ada Byrne' })).toHaveAttribute(
    'href',
    '/entities/people/np-pv-2',
  );
  expect(second).toHaveTextContent('Risk level change');
  expect(second).toHaveTextContent('recorded by alex');
  expect(screen.getByRole('status')).toHaveTextContent('Showing 2 of 2');
});

test('confirms one from the list: it leaves the list and the pages it changed refresh', async () => {
  const state = serveWaiting([
    heldOutcome('pv-1', 'Acme Holdings Ltd', '2026-06-14T08:00:00.000Z'),
    heldOutcome('pv-3', 'Beta Ltd', '2026-06-15T08:00:00.000Z'),
  ]);
  const { user, onEntityChanged } = renderWaiting();
  const [acme] = await screen.findAllByRole('listitem');
  if (!acme) throw new Error('expected a decision');

  await user.click(within(acme).getByRole('button', { name: 'Confirm' }));
  expect(await screen.findByText('Decision confirmed')).toBeInTheDocument();
  expect(state.confirmed).toEqual(['pv-1']);
  await waitFor(() =>
    expect(screen.queryByRole('link', { name: 'Acme Holdings Ltd' })).not.toBeInTheDocument(),
  );
  expect(screen.getByRole('link', { name: 'Beta Ltd' })).toBeInTheDocument();
  expect(onEntityChanged).toHaveBeenCalled();
});

test('rejects one from the list with a reason', async () => {
  const state = serveWaiting([
    heldOutcome('pv-1', 'Acme Holdings Ltd', '2026-06-14T08:00:00.000Z'),
  ]);
  const { user } = renderWaiting();
  const [acme] = await screen.findAllByRole('listitem');
  if (!acme) throw new Error('expected a decision');

  await user.click(within(acme).getByRole('button', { name: 'Reject' }));
  await user.type(within(acme).getByLabelText(/Reason for rejecting/), 'No evidence');
  await user.click(within(acme).getByRole('button', { name: 'Reject decision' }));
  expect(await screen.findByText('Decision rejected')).toBeInTheDocument();
  expect(state.rejected).toEqual([{ id: 'pv-1', reason: 'No evidence' }]);
  expect(await screen.findByText('Nothing waits for your confirmation')).toBeInTheDocument();
});

test('says when nothing waits', async () => {
  serveWaiting([]);
  renderWaiting();
  expect(await screen.findByText('Nothing waits for your confirmation')).toBeInTheDocument();
  expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
});

test('a failed list says so and offers to try again', async () => {
  server.use(
    apiHandler('GET /api/v2/pending-verifications', () => apiError(500, 'Database unavailable.')),
  );
  renderWaiting();
  expect(
    await screen.findByText('Decisions waiting for you could not be loaded'),
  ).toBeInTheDocument();
  expect(screen.getByRole('button', { name: /try again|retry/i })).toBeInTheDocument();
});
