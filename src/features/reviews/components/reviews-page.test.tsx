import { screen, waitFor, within } from '@testing-library/react';
import type { ReviewItem, ReviewQueuePage } from '../../../../contract/reviews.ts';
import { apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { QueueNavigation } from './queue-navigation.tsx';
import { ReviewsPage } from './reviews-page.tsx';

vi.setConfig({ testTimeout: 20_000 });

function item(n: number, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    entityId: `entity-${n}`,
    type: 'Legal Entity',
    name: `Company ${n} Ltd`,
    country: 'GB',
    kycStatus: 'Review',
    riskLevel: 'High',
    nextReviewDate: '2026-06-01',
    cursor: `cursor-${n}`,
    ...overrides,
  };
}

function page(items: ReviewItem[], nextCursor: string | null = null): ReviewQueuePage {
  return {
    code: 200,
    status: 'success',
    message: '',
    data: items,
    nextCursor,
    counts: { overdue: 3, due7: 5, due30: 12, undated: 4, all: 21 },
    today: '2026-06-10',
  };
}

/** Answers the queue and records every query string asked. */
function serveQueue(answer: (params: URLSearchParams) => ReviewQueuePage) {
  const asked: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/v2/reviews', ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      return answer(params);
    }),
  );
  return asked;
}

test("says today's UTC date in the console's one date style", async () => {
  serveQueue(() => page([item(1, { nextReviewDate: '2026-06-09' })]));
  renderRoute(<ReviewsPage />, { path: '/reviews' });

  expect(await screen.findByText(/Days count in UTC; today is 10 Jun 2026\./)).toBeInTheDocument();
});

test('shows the counts as tabs and the overdue entities with how overdue they are', async () => {
  serveQueue(() =>
    page([
      item(1, { nextReviewDate: '2026-06-09' }),
      item(2, { nextReviewDate: '2026-06-01', type: 'Natural Person', name: 'Ada Byrne' }),
    ]),
  );
  renderRoute(<ReviewsPage />, { path: '/reviews' });

  const table = await screen.findByRole('table', { name: /Overdue reviews/ });
  expect(screen.getByRole('tab', { name: /Overdue\s*3/, selected: true })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: /Due in 7 days\s*5/ })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: /Due in 30 days\s*12/ })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: /All\s*21/ })).toBeInTheDocument();

  const [, firstRow, secondRow] = within(table).getAllByRole('row');
  if (!firstRow || !secondRow) throw new Error('expected two rows under the header');
  // Twice per row: in its column, and under the name for phones (CSS shows one).
  expect(within(firstRow).getAllByText('Overdue by 1 day')).toHaveLength(2);
  expect(within(secondRow).getAllByText('Overdue by 9 days')).toHaveLength(2);
  // Types in sentence case, as everywhere else in the console.
  expect(within(firstRow).getByText('Legal entity')).toBeInTheDocument();
  expect(within(secondRow).getByText('Natural person')).toBeInTheDocument();
  const link = within(secondRow).getByRole('link', { name: 'Ada Byrne' });
  expect(link).toHaveAttribute(
    'href',
    '/entities/people/entity-2?queue=overdue&after=cursor-2&position=2',
  );
  expect(screen.getByText('Showing 2 of 3')).toHaveAttribute('role', 'status');
});

test('shows the undated window with its count: entities without a next review date', async () => {
  const asked = serveQueue((params) =>
    params.get('due') === 'undated'
      ? page([item(7, { nextReviewDate: null, name: 'Undated Holdings Ltd' })])
      : page([item(1, { nextReviewDate: '2026-06-09' })]),
  );
  const { user, router } = renderRoute(<ReviewsPage />, { path: '/reviews' });
  await screen.findByRole('table', { name: /Overdue reviews/ });

  await user.click(screen.getByRole('tab', { name: /Undated\s*4/ }));
  const table = await screen.findByRole('table', { name: /without a next review date/ });
  expect(router.state.location.search).toBe('?due=undated');
  expect(asked.at(-1)?.get('due')).toBe('undated');
  const [, row] = within(table).getAllByRole('row');
  if (!row) throw new Error('expected one row under the header');
  expect(within(row).getByRole('link', { name: 'Undated Holdings Ltd' })).toHaveAttribute(
    'href',
    '/entities/entity-7?queue=undated&after=cursor-7&position=1',
  );
  expect(within(row).getAllByText('—')).toHaveLength(2);
  expect(screen.getByText('Showing 1 of 4')).toHaveAttribute('role', 'status');
});

test('keeps the window and the filters in the address and asks the server with them', async () => {
  const asked = serveQueue((params) =>
    page([item(1, { nextReviewDate: params.get('due') === '7d' ? '2026-06-10' : '2026-06-01' })]),
  );
  const { user, router } = renderRoute(<ReviewsPage />, { path: '/reviews?riskLevel=High' });
  await screen.findByRole('table');
  expect(asked.at(-1)?.get('riskLevel')).toBe('High');
  expect(screen.getByRole('combobox', { name: 'Risk level' })).toHaveValue('High');

  await user.click(screen.getByRole('tab', { name: /Due in 7 days/ }));
  await screen.findAllByText('Due today');
  expect(router.state.location.search).toBe('?due=7d&riskLevel=High');

  await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Escalated');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'natural-persons');
  const country = screen.getByRole('combobox', { name: 'Country' });
  await user.click(country);
  await user.type(country, 'fran');
  await user.click(await screen.findByRole('option', { name: 'France (FR)' }));
  await waitFor(() =>
    expect(router.state.location.search).toBe(
      '?due=7d&status=Escalated&country=FR&riskLevel=High&type=natural-persons',
    ),
  );
  await waitFor(() => expect(asked.at(-1)?.get('country')).toBe('FR'));
  const last = asked.at(-1);
  expect(Object.fromEntries(last ?? [])).toEqual({
    due: '7d',
    status: 'Escalated',
    country: 'FR',
    riskLevel: 'High',
    type: 'natural-persons',
    limit: '25',
  });
});

test('loads more with the cursor and numbers the links on', async () => {
  serveQueue((params) =>
    params.get('cursor') === 'page-2' ? page([item(3)]) : page([item(1), item(2)], 'page-2'),
  );
  const { user } = renderRoute(<ReviewsPage />, { path: '/reviews' });
  await user.click(await screen.findByRole('button', { name: 'Load more' }));
  const link = await screen.findByRole('link', { name: 'Company 3 Ltd' });
  expect(link).toHaveAttribute(
    'href',
    '/entities/entity-3?queue=overdue&after=cursor-3&position=3',
  );
  expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  expect(screen.getByText('Showing 3 of 3')).toHaveAttribute('role', 'status');
});

test('says when nothing is due', async () => {
  serveQueue(() => page([]));
  renderRoute(<ReviewsPage />, { path: '/reviews?due=30d' });
  expect(await screen.findByText('Nothing due in the next 30 days')).toBeInTheDocument();
});

test('an empty window of "Assigned to me" says only your entities are shown, and shows everyone’s on a click', async () => {
  const asked = serveQueue(() => page([]));
  const { router, user } = renderRoute(<ReviewsPage assignment />, {
    path: '/reviews?due=overdue&assignee=me',
    routePath: '/reviews',
  });
  expect(await screen.findByText(/Only entities assigned to you are shown/)).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Show everyone’s' }));
  await waitFor(() => expect(router.state.location.search).toContain('assignee=all'));
  await waitFor(() => expect(asked.at(-1)?.get('assignee')).toBeNull());
});

describe('queue navigation on an entity page', () => {
  test('shows the position and links to the next entity of the same queue', async () => {
    const asked = serveQueue(() => page([item(7, { name: 'Next Co Ltd' })]));
    renderRoute(<QueueNavigation />, {
      path: '/entities/entity-6?queue=overdue&riskLevel=High&after=cursor-6&position=2',
    });
    const nav = screen.getByRole('navigation', { name: 'Review queue' });
    const next = await within(nav).findByRole('link', { name: /Next in queue: Next Co Ltd/ });
    expect(next).toHaveAttribute(
      'href',
      '/entities/entity-7?queue=overdue&riskLevel=High&after=cursor-7&position=3',
    );
    expect(within(nav).getByText('2 of 3 overdue')).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Back to the queue' })).toHaveAttribute(
      'href',
      '/reviews?riskLevel=High',
    );
    expect(Object.fromEntries(asked.at(-1) ?? [])).toMatchObject({
      due: 'overdue',
      riskLevel: 'High',
      cursor: 'cursor-6',
      limit: '1',
    });
  });

  test('says when the queue ends', async () => {
    serveQueue(() => page([]));
    renderRoute(<QueueNavigation />, {
      path: '/entities/entity-9?queue=all&after=cursor-9&position=9',
    });
    expect(await screen.findByText('End of the queue')).toBeInTheDocument();
    // The All window is counted too, so its position has a total.
    expect(screen.getByText('9 of 21 in the queue')).toBeInTheDocument();
  });

  test('is not there when the entity was not opened from the queue', () => {
    renderRoute(<QueueNavigation />, { path: '/entities/entity-9' });
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });
});
