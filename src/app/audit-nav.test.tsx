import { cleanup, screen, within } from '@testing-library/react';
import { endSession, startSession } from '../features/auth/session/session-store.ts';
import { tokenFor } from '../features/auth/testing/fake-token.ts';
import { apiHandler, capabilities, envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { renderRoute } from '../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  // Unmount first: ending the session notifies whatever is still rendered.
  cleanup();
  endSession({ byUser: false });
});

function renderShellAs(role: 'reviewer' | 'auditor') {
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(capabilities({ account: { username: 'dana', role } })),
    ),
  );
  startSession(
    { token: tokenFor('dana'), expiresAt: new Date(Date.now() + 20 * 60_000).toISOString() },
    'dana',
  );
  return renderRoute(<p>unused</p>, {
    path: '/entities',
    routePath: '/__unused',
    extraRoutes: [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'entities', element: <h1>Entities</h1> },
          { path: 'audit', element: <h1>Audit log page</h1> },
          { path: 'legal-entities/new', element: <h1>Onboarding page</h1> },
        ],
      },
    ],
  });
}

test('an auditor finds the Audit log in the navigation and it opens the log', async () => {
  const { user, router } = renderShellAs('auditor');
  const nav = screen.getByRole('navigation', { name: 'Main' });

  const link = await within(nav).findByRole('link', { name: 'Audit log' });
  expect(link).toHaveAttribute('href', '/audit');
  await user.click(link);
  expect(await screen.findByRole('heading', { name: 'Audit log page' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/audit');
  expect(within(nav).getByRole('link', { name: 'Audit log' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('a reviewer has no Audit log link', async () => {
  const { queryClient } = renderShellAs('reviewer');
  const nav = await screen.findByRole('navigation', { name: 'Main' });

  await vi.waitFor(() => expect(queryClient.getQueryData(['capabilities'])).toBeDefined());
  expect(within(nav).getByRole('link', { name: 'Entities' })).toBeInTheDocument();
  expect(within(nav).queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
});

test('an auditor is offered no way to onboard: not in the navigation, not in the palette', async () => {
  const { user } = renderShellAs('auditor');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  expect(await within(nav).findByRole('link', { name: 'Audit log' })).toBeInTheDocument();
  expect(within(nav).queryByRole('link', { name: 'Onboard legal entity' })).not.toBeInTheDocument();

  await user.keyboard('{Control>}k{/Control}');
  const palette = await screen.findByRole('dialog', { name: 'Command palette' });
  expect(within(palette).getByRole('option', { name: /Entities/ })).toBeInTheDocument();
  expect(within(palette).queryByRole('option', { name: /Onboard/ })).not.toBeInTheDocument();
});

test('a reviewer finds Onboard legal entity in the navigation and in the palette', async () => {
  const { user } = renderShellAs('reviewer');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  expect(await within(nav).findByRole('link', { name: 'Onboard legal entity' })).toHaveAttribute(
    'href',
    '/legal-entities/new',
  );

  await user.keyboard('{Control>}k{/Control}');
  const palette = await screen.findByRole('dialog', { name: 'Command palette' });
  expect(within(palette).getByRole('option', { name: /Onboard legal entity/ })).toBeInTheDocument();
});
