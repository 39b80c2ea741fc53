import { notifications } from '@mantine/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { delay } from 'msw';
import type { ReviewItem, ReviewQueuePage } from '../../../contract/reviews.ts';
import { apiError, apiHandler, envelope } from '../../testing/handlers.ts';
import { server } from '../../testing/msw-server.ts';
import { renderRoute } from '../../testing/render.tsx';
import { ReviewsPage } from '../../features/reviews/components/reviews-page.tsx';
import { QueueBulkActions } from './queue-bulk-actions.tsx';

// Two dialogs, a select and several rows of requests; the shared machine is slow.
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  cleanup();
  notifications.clean();
});

function item(n: number): ReviewItem {
  return {
    entityId: `entity-${n}`,
    type: 'Legal Entity',
    name: `Company ${n} Ltd`,
    country: 'GB',
    kycStatus: 'Review',
    riskLevel: 'High',
    nextReviewDate: '2026-06-01',
    assignedUser: null,
    cursor: `cursor-${n}`,
  };
}

function serveQueue(count: number) {
  const items = Array.from({ length: count }, (_, index) => item(index + 1));
  const page: ReviewQueuePage = {
    code: 200,
    status: 'success',
    message: '',
    data: items,
    nextCursor: null,
    counts: { overdue: count, due7: 0, due30: 0, undated: 0, all: count },
    today: '2026-06-10',
  };
  server.use(apiHandler('GET /api/v2/reviews', () => page));
}

function renderQueue({ canAct = true } = {}) {
  return renderRoute(
    <ReviewsPage
      assignment
      canTakeNext={canAct}
      renderBulkActions={
        canAct
          ? (selected, select) => (
              <QueueBulkActions
                selected={selected}
                select={select}
                onChanged={() => Promise.resolve()}
              />
            )
          : undefined
      }
    />,
    { path: '/reviews?assignee=all', routePath: '/reviews' },
  );
}

test('select all, assign to a reviewer: one call per row, refusals shown row by row and kept selected', async () => {
  serveQueue(3);
  const sent: { id: unknown; body: unknown }[] = [];
  server.use(
    apiHandler('PUT /api/v2/entities/:id/assignee', async ({ request, params }) => {
      sent.push({ id: params.id, body: await request.json() });
      if (params.id === 'entity-2') {
        return apiError(403, 'Your role may read but not change records.');
      }
      return envelope({ entityId: String(params.id), assignedUser: 'dana', previous: null });
    }),
  );
  const { user } = renderQueue();
  await screen.findByRole('link', { name: 'Company 1 Ltd' });
  expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument();

  await user.click(screen.getByRole('checkbox', { name: 'Select every row shown' }));
  const bar = screen.getByRole('region', { name: 'Bulk actions' });
  expect(bar).toHaveTextContent('3 entities selected');
  await user.click(within(bar).getByRole('button', { name: 'Assign selected to…' }));

  const dialog = await screen.findByRole('dialog', { name: 'Assign 3 entities' });
  await user.click(within(dialog).getByRole('button', { name: 'Assign 3 entities' }));
  expect(within(dialog).getByText('Choose a reviewer.')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('combobox', { name: /Reviewer/ }));
  await user.click(await screen.findByRole('option', { name: 'Dana Reviewer (dana)' }));
  await user.click(within(dialog).getByRole('button', { name: 'Assign 3 entities' }));

  const outcomes = await within(dialog).findByRole('list', { name: 'Outcome per entity' });
  const rows = within(outcomes).getAllByRole('listitem');
  expect(rows.map((row) => row.textContent)).toEqual([
    'Company 1 Ltd — Assigned',
    'Company 2 Ltd — Refused: Your role may read but not change records.',
    'Company 3 Ltd — Assigned',
  ]);
  expect(within(dialog).getByRole('status')).toHaveTextContent('Assigned: 2 of 3. 1 refused');
  expect(sent.map((call) => call.id).sort()).toEqual(['entity-1', 'entity-2', 'entity-3']);
  expect(sent.every((call) => JSON.stringify(call.body) === '{"username":"dana"}')).toBe(true);

  await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  // The refused row is still selected, ready to try again.
  expect(await screen.findByRole('checkbox', { name: 'Select Company 2 Ltd' })).toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Select Company 1 Ltd' })).not.toBeChecked();
});

test('the same note on each selected row, at most four requests at once', async () => {
  serveQueue(6);
  let inFlight = 0;
  let mostInFlight = 0;
  const notes: { id: unknown; body: unknown }[] = [];
  server.use(
    apiHandler('POST /api/v2/entities/:id/notes', async ({ request, params }) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const body = (await request.json()) as unknown;
      await delay(30);
      inFlight -= 1;
      notes.push({ id: params.id, body });
      return envelope({
        id: `note-${String(params.id)}`,
        author: 'reviewer',
        at: '2026-06-10T10:00:00.000Z',
        text: 'Batch checked.',
      });
    }),
  );
  const { user } = renderQueue();
  await screen.findByRole('link', { name: 'Company 1 Ltd' });
  for (const n of [1, 3, 4, 5, 6]) {
    await user.click(screen.getByRole('checkbox', { name: `Select Company ${n} Ltd` }));
  }
  expect(screen.getByRole('checkbox', { name: 'Select every row shown' })).toHaveAttribute(
    'data-indeterminate',
    'true',
  );
  await user.click(screen.getByRole('button', { name: 'Add a note to selected…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a note to 5 entities' });
  await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), '  Batch checked.  ');
  await user.click(within(dialog).getByRole('button', { name: 'Add to 5 entities' }));

  expect(await within(dialog).findByRole('status')).toHaveTextContent('Note added: all 5.');
  expect(notes.map((note) => note.id).sort()).toEqual([
    'entity-1',
    'entity-3',
    'entity-4',
    'entity-5',
    'entity-6',
  ]);
  expect(notes.every((note) => JSON.stringify(note.body) === '{"text":"Batch checked."}')).toBe(
    true,
  );
  expect(mostInFlight).toBeGreaterThan(1);
  expect(mostInFlight).toBeLessThanOrEqual(4);
  await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  await waitFor(() =>
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument(),
  );
});

test('without bulk actions (an auditor) there are no checkboxes', async () => {
  serveQueue(2);
  renderQueue({ canAct: false });
  await screen.findByRole('link', { name: 'Company 1 Ltd' });
  expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
});
