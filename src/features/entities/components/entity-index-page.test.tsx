import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  entityIndexQuerySchema,
  type EntityIndexQuery,
  type EntityIndexRow,
} from '../../../../contract/entity-index.ts';
import { apiError, apiHandler, capabilities, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { EntityIndexPage } from './entity-index-page.tsx';

// Mantine and user-event are slow on the shared 2-core machines; the assertions themselves are not timed.
vi.setConfig({ testTimeout: 30_000 });

function row(n: number): EntityIndexRow {
  return {
    entityId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'Legal Entity',
    name: `Company ${n}`,
    country: 'GB',
    kycStatus: 'Pending',
    riskLevel: 'High',
    nextKYCReview: null,
    assignee: n % 2 === 0 ? 'alice' : null,
    documents: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

/** Serves the index as the server would: the contract's schema checks every query (400 otherwise). */
function serveIndex(total: number) {
  const seen: EntityIndexQuery[] = [];
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(capabilities({ features: { ...capabilities().features, entityIndex: true } })),
    ),
    apiHandler('GET /api/v2/entity-index', ({ request }) => {
      const parsed = entityIndexQuerySchema.safeParse(
        Object.fromEntries(new URL(request.url).searchParams),
      );
      if (!parsed.success) return apiError(400, parsed.error.message);
      seen.push(parsed.data);
      const start = parsed.data.cursor ? Number(parsed.data.cursor) : 0;
      const data = Array.from(
        { length: Math.max(0, Math.min(parsed.data.limit, total - start)) },
        (_, index) => row(start + index + 1),
      );
      const next = start + data.length;
      return {
        code: 200,
        status: 'success',
        message: '',
        data,
        nextCursor: next < total ? String(next) : null,
        total,
      };
    }),
  );
  return seen;
}

describe('Entities page on the entity index', () => {
  it('shows "1–25 of 1,234", pages on with the cursor, and keeps sort and filters in the address', async () => {
    const seen = serveIndex(1234);
    const user = userEvent.setup();
    const { router } = renderRoute(<EntityIndexPage />, {
      path: '/entities?country=DE&riskLevel=High',
      routePath: '/entities',
    });
    expect(await screen.findByText('1–25 of 1,234')).toBeInTheDocument();
    expect(seen.at(-1)).toMatchObject({ country: 'DE', riskLevel: 'High', sort: 'name' });
    // The rows render in a deferred pass after the range they belong to.
    expect(
      within(await screen.findByRole('table', { name: 'Entities' })).getAllByRole('row'),
    ).toHaveLength(26);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('26–50 of 1,234')).toBeInTheDocument();
    expect(seen.at(-1)?.cursor).toBe('25');

    await user.selectOptions(screen.getByLabelText('Sort by'), 'nextReview:desc');
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ sort: 'nextReview', order: 'desc' }));
    // A new order starts at the first page.
    expect(seen.at(-1)?.cursor).toBeUndefined();
    expect(router.state.location.search).toContain('sort=nextReview');
    expect(router.state.location.search).toContain('country=DE');

    await user.type(screen.getByLabelText(/Name or ID/), 'acme{Enter}');
    await waitFor(() => expect(seen.at(-1)?.q).toBe('acme'));
  });

  it('says when nothing matches and clears the filters', async () => {
    const seen = serveIndex(0);
    const user = userEvent.setup();
    renderRoute(<EntityIndexPage />, {
      path: '/entities?kycStatus=Rejected',
      routePath: '/entities',
    });
    expect(await screen.findByText('No entities match')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(seen.at(-1)?.kycStatus).toBeUndefined());
  });
});
