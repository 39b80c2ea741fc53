import { notifications } from '@mantine/notifications';
import { act, cleanup, screen, within } from '@testing-library/react';
import type { WaitingDecision } from '../../contract/decisions.ts';
import { endSession, startSession } from '../features/auth/session/session-store.ts';
import { tokenFor } from '../features/auth/testing/fake-token.ts';
import { apiHandler, capabilities, envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { renderRoute } from '../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';
import { WaitingRoute } from './routes/waiting-route.tsx';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  // Unmount first: ending the session notifies whatever is still rendered.
  cleanup();
  endSession({ byUser: false });
  notifications.clean();
});

function held(id: string): WaitingDecision {
  return {
    id,
    kind: 'risk-level',
    entityId: `le-${id}`,
    entityName: `Entity ${id}`,
    entityType: 'Legal Entity',
    riskChange: { from: 'Low', to: 'High', reason: 'Adverse media' },
    rule: 'all',
    requestedBy: 'alice',
    requestedAt: '2026-06-14T08:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    reason: null,
  };
}

/** The shell at `path` for dana with `role`, and the server's waiting list (confirm removes). */
function renderShell(path: string, role: 'reviewer' | 'auditor', waiting: WaitingDecision[]) {
  let items = waiting;
  const asked: URLSearchParams[] = [];
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(capabilities({ account: { username: 'dana', role } })),
    ),
    apiHandler('GET /api/v2/pending-verifications', ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      const limit = Number(params.get('limit'));
      return { ...envelope(items.slice(0, limit)), nextCursor: null, total: items.length };
    }),
    apiHandler('POST /api/v2/pending-verifications/:id/confirm', ({ params }) => {
      items = items.filter((one) => one.id !== params.id);
      return envelope({
        kind: 'risk-level',
        state: 'applied',
        kycMetaData: { kycStatus: 'Review', riskLevel: 'High' },
      });
    }),
  );
  startSession(
    { token: tokenFor('dana'), expiresAt: new Date(Date.now() + 20 * 60_000).toISOString() },
    'dana',
  );
  const view = renderRoute(<p>unused</p>, {
    path,
    routePath: '/__unused',
    extraRoutes: [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'entities', element: <h1>Entities</h1> },
          { path: 'waiting-for-me', element: <WaitingRoute /> },
        ],
      },
    ],
  });
  return { ...view, asked };
}

test('the navigation counts what waits for the reviewer, and the count follows a confirmation', async () => {
  const { user, asked } = renderShell('/waiting-for-me', 'reviewer', [held('pv-1'), held('pv-2')]);
  const nav = screen.getByRole('navigation', { name: 'Main' });

  const link = await within(nav).findByRole('link', { name: 'Waiting for me (2)' });
  expect(link).toHaveAttribute('href', '/waiting-for-me');
  expect(link).toHaveAttribute('aria-current', 'page');
  // The count asks for one decision: the total is all it needs.
  expect(asked.some((params) => params.get('limit') === '1')).toBe(true);

  const [first] = await screen.findAllByRole('listitem');
  if (!first) throw new Error('expected a decision');
  await user.click(within(first).getByRole('button', { name: 'Confirm' }));
  expect(await within(nav).findByRole('link', { name: 'Waiting for me (1)' })).toBeInTheDocument();
});

test('the count is asked for only once the browser is idle, after the page has asked for its own', async () => {
  const idleCallbacks: (() => void)[] = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  try {
    const { asked } = renderShell('/entities', 'reviewer', [held('pv-1'), held('pv-2')]);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const link = await within(nav).findByRole('link', { name: /Waiting for me/ });
    expect(link).toHaveAccessibleName('Waiting for me');
    expect(asked).toEqual([]);

    act(() => {
      for (const callback of idleCallbacks) callback();
    });
    expect(
      await within(nav).findByRole('link', { name: 'Waiting for me (2)' }),
    ).toBeInTheDocument();
  } finally {
    // Unmounted while the stub is there: the hook cancels its callback on unmount.
    cleanup();
    vi.unstubAllGlobals();
  }
});

test('no count when nothing waits', async () => {
  renderShell('/entities', 'reviewer', []);
  const nav = screen.getByRole('navigation', { name: 'Main' });
  const link = await within(nav).findByRole('link', { name: /Waiting for me/ });
  expect(link).toHaveAccessibleName('Waiting for me');
});

test('an auditor confirms nothing: no Waiting for me, and the count is never asked', async () => {
  const { asked, queryClient } = renderShell('/entities', 'auditor', [held('pv-1')]);
  const nav = screen.getByRole('navigation', { name: 'Main' });
  await within(nav).findByRole('link', { name: 'Audit log' });
  expect(queryClient.getQueryData(['capabilities'])).toBeDefined();
  expect(within(nav).queryByRole('link', { name: /Waiting for me/ })).not.toBeInTheDocument();
  expect(asked).toEqual([]);
});
