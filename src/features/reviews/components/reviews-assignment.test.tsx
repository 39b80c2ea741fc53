import { notifications } from '@mantine/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { ReviewItem, ReviewQueuePage } from '../../../../contract/reviews.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ReviewsPage } from './reviews-page.tsx';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  // Unmount first: cleaning the notifications store notifies whatever is still rendered.
  cleanup();
  notifications.clean();
});

function item(n: number, overrides: Partial<ReviewItem> = {}): ReviewItem {
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
    ...overrides,
  };
}

function page(items: ReviewItem[]): ReviewQueuePage {
  return {
    code: 200,
    status: 'success',
    message: '',
    data: items,
    nextCursor: null,
    counts: { overdue: items.length, due7: 0, due30: 0, undated: 0, all: items.length },
    today: '2026-06-10',
  };
}

const mine = [item(1, { assignedUser: 'reviewer', name: 'Mine Ltd' })];
const unassigned = [item(2, { name: 'Nobody’s Ltd' })];
const others = [item(3, { assignedUser: 'alex', name: 'Alex’s Ltd' })];

/** A queue of three entities, one per assignee, answered by the `assignee` asked for. */
function serveQueue({ haveMine = true } = {}) {
  const asked: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/v2/reviews', ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      const assignee = params.get('assignee');
      if (assignee === 'me') return page(haveMine ? mine : []);
      if (assignee === 'none') return page(unassigned);
      return page([...(haveMine ? mine : []), ...unassigned, ...others]);
    }),
  );
  return asked;
}

function renderQueue(path = '/reviews') {
  return renderRoute(<ReviewsPage assignment canTakeNext />, {
    path,
    routePath: '/reviews',
    extraRoutes: [
      { path: '/entities/:id', element: <h1>Entity page</h1> },
      { path: '/entities/people/:id', element: <h1>Person page</h1> },
    ],
  });
}

test('opens on "Assigned to me" when the reviewer has work, and switches, keeping it in the address', async () => {
  const asked = serveQueue();
  const { user, router } = renderQueue();

  expect(await screen.findByRole('link', { name: 'Mine Ltd' })).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'Assigned to me' })).toBeChecked();
  expect(screen.queryByRole('link', { name: 'Nobody’s Ltd' })).not.toBeInTheDocument();
  expect(asked.at(-1)?.get('assignee')).toBe('me');
  // The entity link carries the choice, so "Next in queue" follows the same tab.
  expect(screen.getByRole('link', { name: 'Mine Ltd' })).toHaveAttribute(
    'href',
    '/entities/entity-1?queue=overdue&assignee=me&after=cursor-1&position=1',
  );

  await user.click(screen.getByRole('radio', { name: 'Unassigned' }));
  expect(await screen.findByRole('link', { name: 'Nobody’s Ltd' })).toBeInTheDocument();
  expect(router.state.location.search).toBe('?assignee=none');
  expect(asked.at(-1)?.get('assignee')).toBe('none');

  await user.click(screen.getByRole('radio', { name: 'Everyone' }));
  const table = await screen.findByRole('table');
  await within(table).findByRole('link', { name: 'Alex’s Ltd' });
  expect(router.state.location.search).toBe('?assignee=all');
  // Everyone's queue is no filter at all.
  expect(asked.at(-1)?.has('assignee')).toBe(false);
  expect(within(table).getByRole('columnheader', { name: 'Assigned to' })).toBeInTheDocument();
  const [, mineRow, nobodyRow, alexRow] = within(table).getAllByRole('row');
  if (!mineRow || !nobodyRow || !alexRow) throw new Error('expected three rows');
  expect(within(mineRow).getAllByText('Assigned to reviewer')).toHaveLength(1);
  expect(within(nobodyRow).getByText('Nobody')).toBeInTheDocument();
  expect(within(alexRow).getAllByText(/alex/)).not.toHaveLength(0);
});

test('opens on "Everyone" when nothing is assigned to the reviewer', async () => {
  serveQueue({ haveMine: false });
  renderQueue();
  expect(await screen.findByRole('link', { name: 'Alex’s Ltd' })).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'Everyone' })).toBeChecked();
});

test('"Take next unassigned" takes from the window and filters on screen and opens the entity', async () => {
  serveQueue();
  let sent: unknown;
  server.use(
    apiHandler('POST /api/v2/reviews/take-next', async ({ request }) => {
      sent = await request.json();
      return envelope(item(8, { type: 'Natural Person', assignedUser: 'reviewer' }));
    }),
  );
  const { user, router } = renderQueue('/reviews?due=7d&riskLevel=High&assignee=none');
  await screen.findByRole('table');

  await user.click(screen.getByRole('button', { name: 'Take next unassigned' }));
  expect(await screen.findByRole('heading', { name: 'Person page' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/entities/people/entity-8');
  // Whose queue is not a filter of take-next: it always takes an unassigned one.
  expect(sent).toEqual({ due: '7d', type: 'all', riskLevel: 'High' });
});

test('"Take next unassigned" says when nothing is left, and stays on the queue', async () => {
  serveQueue();
  server.use(
    apiHandler('POST /api/v2/reviews/take-next', () =>
      apiError(404, 'No unassigned entity is left in this queue.'),
    ),
  );
  const { user, router } = renderQueue('/reviews?assignee=none');
  await screen.findByRole('table');

  await user.click(screen.getByRole('button', { name: 'Take next unassigned' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Nothing taken');
  expect(alert).toHaveTextContent('No unassigned entity is left in this queue.');
  expect(router.state.location.pathname).toBe('/reviews');
});

test('without assignment in the mode there is no switch, column or Take next', async () => {
  serveQueue();
  renderRoute(<ReviewsPage />, { path: '/reviews' });
  const table = await screen.findByRole('table');
  expect(screen.queryByRole('radio', { name: 'Assigned to me' })).not.toBeInTheDocument();
  expect(within(table).queryByRole('columnheader', { name: 'Assigned to' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Take next unassigned' })).not.toBeInTheDocument();
  await waitFor(() => expect(screen.getByText(/^Showing 3/)).toHaveAttribute('role', 'status'));
});
