import { Button, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { entityListResponseSchema } from '../../contract/entities.ts';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { finishReSignIn } from '../features/auth/session/re-sign-in.ts';
import {
  SESSION_STORAGE_KEY,
  endSession,
  getSession,
  startSession,
} from '../features/auth/session/session-store.ts';
import { tokenFor } from '../features/auth/testing/fake-token.ts';
import { apiRequest } from '../lib/api-client.ts';
import { buildLegalEntity } from '../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { renderRoute } from '../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';

// Whole journeys with typing and several renders; the shared test machine can be slow.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  // Unmount first: the stores below notify whatever is still rendered.
  cleanup();
  finishReSignIn(false);
  endSession({ byUser: false });
  notifications.clean();
});

function signInAs(username: string, { minutesLeft = 20, name = 'Dana Reviewer' } = {}) {
  const token = tokenFor(username, 20, name);
  startSession(
    { token, expiresAt: new Date(Date.now() + minutesLeft * 60_000).toISOString() },
    username,
  );
  return token;
}

/** A page where a reviewer types something, then loads data twice at once. */
function WorkPage() {
  const [result, setResult] = useState('');
  const [failure, setFailure] = useState('');
  const load = () => apiRequest('/api/v2/entities', { schema: entityListResponseSchema });
  return (
    <>
      <TextInput label="Note" />
      <Button
        onClick={() => {
          Promise.all([load(), load()]).then(
            ([first, second]) => setResult(`Loaded ${first.data.length + second.data.length}`),
            (error: unknown) => setFailure(error instanceof Error ? error.message : 'failed'),
          );
        }}
      >
        Load entities
      </Button>
      {result && <p>{result}</p>}
      {failure && <p>Failed: {failure}</p>}
    </>
  );
}

function renderShell(path: string) {
  return renderRoute(<p>unused</p>, {
    path,
    routePath: '/__unused',
    extraRoutes: [
      { path: '/login', element: <LoginPage /> },
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'entities', element: <WorkPage /> },
          { path: 'entities/:id', element: <h1>Entity detail page</h1> },
          { path: 'search', element: <h1>Search page</h1> },
        ],
      },
    ],
  });
}

test('the shell shows the product, navigation with the current page marked, the user and a main landmark', async () => {
  signInAs('dana', { name: 'Dana Reviewer' });
  const { user, router } = renderShell('/entities/00000000-0000-4000-8000-000000000001');

  expect(await screen.findByRole('heading', { name: 'Entity detail page' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'KYC Desk' })).toHaveAttribute('href', '/entities');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  expect(within(nav).getByRole('link', { name: 'Entities' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  expect(within(nav).getByRole('link', { name: 'Search' })).not.toHaveAttribute('aria-current');
  // Offered once the account is known to be a reviewer (auditors create nothing).
  expect(await within(nav).findByRole('link', { name: 'Onboard legal entity' })).toHaveAttribute(
    'href',
    '/legal-entities/new',
  );
  expect(screen.getByText('Dana Reviewer')).toBeInTheDocument();
  expect(screen.getByRole('main')).toContainElement(
    screen.getByRole('heading', { name: 'Entity detail page' }),
  );

  await user.click(within(nav).getByRole('link', { name: 'Search' }));
  expect(await screen.findByRole('heading', { name: 'Search page' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/search');
  expect(within(nav).getByRole('link', { name: 'Search' })).toHaveAttribute('aria-current', 'page');

  await user.click(screen.getByRole('link', { name: 'Skip to main content' }));
  expect(screen.getByRole('main')).toHaveFocus();
});

test('signed out, a deep link goes to sign-in with next and comes back after signing in', async () => {
  server.use(apiHandler('POST /api/gettoken', () => ({ token: tokenFor('dana') })));
  const target = '/entities/00000000-0000-4000-8000-000000000007';
  const { user, router } = renderShell(target);

  await user.type(await screen.findByLabelText('Username'), 'dana');
  expect(router.state.location.pathname).toBe('/login');
  expect(new URLSearchParams(router.state.location.search).get('next')).toBe(target);
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));

  expect(await screen.findByRole('heading', { name: 'Entity detail page' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe(target);
});

test('a 401 during use opens one dialog; signing in again retries and keeps what was typed', async () => {
  const oldToken = signInAs('dana');
  const newToken = tokenFor('dana');
  const signIns: Record<string, string>[] = [];
  const entityCalls: (string | null)[] = [];
  server.use(
    apiHandler('GET /api/v2/entities', ({ request }) => {
      const authorization = request.headers.get('Authorization');
      entityCalls.push(authorization);
      return authorization === `Bearer ${newToken}`
        ? envelope([buildLegalEntity()])
        : apiError(401, 'The token is invalid or has expired. Sign in again.');
    }),
    apiHandler('POST /api/gettoken', async ({ request }) => {
      signIns.push(Object.fromEntries(new URLSearchParams(await request.text())));
      return { token: newToken };
    }),
  );
  const { user } = renderShell('/entities');

  await user.type(await screen.findByLabelText('Note'), 'Checked the registry extract');
  await user.click(screen.getByRole('button', { name: 'Load entities' }));

  const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
  await waitFor(() => expect(entityCalls).toEqual([`Bearer ${oldToken}`, `Bearer ${oldToken}`]));
  expect(screen.getAllByRole('dialog')).toHaveLength(1);
  expect(within(dialog).getByLabelText('Username')).toHaveValue('dana');
  await user.type(within(dialog).getByLabelText('Password'), 'correct horse');
  await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));

  expect(await screen.findByText('Loaded 2')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(signIns).toEqual([{ Username: 'dana', Password: 'correct horse' }]);
  expect(entityCalls.slice(2)).toEqual([`Bearer ${newToken}`, `Bearer ${newToken}`]);
  expect(screen.getByLabelText('Note')).toHaveValue('Checked the registry extract');
  expect(getSession()?.token).toBe(newToken);
});

test('choosing sign out in the dialog fails the waiting request and goes to sign-in', async () => {
  signInAs('dana');
  server.use(apiHandler('GET /api/v2/entities', () => apiError(401, 'The token has expired.')));
  const { user, router } = renderShell('/entities');

  await user.click(await screen.findByRole('button', { name: 'Load entities' }));
  const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
  await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));

  expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  expect(router.state.location.search).toBe('');
  expect(getSession()).toBeNull();
});

test('sign out clears the token from sessionStorage and the whole query cache', async () => {
  signInAs('dana');
  const { user, router, queryClient } = renderShell('/entities');
  queryClient.setQueryData(['entities', 'list', { start: 0 }], [buildLegalEntity()]);
  queryClient.setQueryData(['documents', 'x'], { fileName: 'passport.pdf' });
  expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();

  await user.click(await screen.findByRole('button', { name: 'Sign out' }));

  expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  expect(router.state.location.search).toBe('');
  expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
});

test('sign out ends the session on the server with the token being forgotten', async () => {
  const token = signInAs('dana');
  const revoked: { authorization: string | null; body: unknown }[] = [];
  server.use(
    apiHandler('POST /api/signout', async ({ request }) => {
      revoked.push({
        authorization: request.headers.get('Authorization'),
        body: await request.json(),
      });
      return envelope({ revokedSessions: 1 });
    }),
  );
  const { user } = renderShell('/entities');

  await user.click(await screen.findByRole('button', { name: 'Sign out' }));

  expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  await waitFor(() =>
    expect(revoked).toEqual([{ authorization: `Bearer ${token}`, body: { everywhere: false } }]),
  );
});

test('regaining focus checks the token with /api/tokenvalid', async () => {
  const token = signInAs('dana');
  const checks: (string | null)[] = [];
  server.use(
    apiHandler('GET /api/tokenvalid', ({ request }) => {
      checks.push(request.headers.get('Authorization'));
      return { isTokenValid: true, expiresAt: new Date(Date.now() + 20 * 60_000).toISOString() };
    }),
  );
  renderShell('/entities');
  await screen.findByRole('button', { name: 'Load entities' });
  expect(checks).toEqual([]);

  act(() => {
    fireEvent.focus(window);
  });
  await waitFor(() => expect(checks).toEqual([`Bearer ${token}`]));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('a token found invalid when the tab becomes visible opens the re-sign-in dialog', async () => {
  signInAs('dana');
  server.use(
    apiHandler('GET /api/tokenvalid', () =>
      apiError(401, 'The token is invalid or has expired. Sign in again.'),
    ),
  );
  renderShell('/entities');
  await screen.findByRole('button', { name: 'Load entities' });

  act(() => {
    fireEvent(document, new Event('visibilitychange'));
  });
  expect(await screen.findByRole('dialog', { name: 'Your session has ended' })).toBeInTheDocument();
  expect(screen.getByLabelText('Note')).toBeInTheDocument();
});

test('two minutes before expiry a notice offers to stay signed in', async () => {
  signInAs('dana', { minutesLeft: 1.5 });
  const { user } = renderShell('/entities');

  const notice = await screen.findByRole('alert');
  expect(notice).toHaveTextContent('Your session ends soon');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  await user.click(within(notice).getByRole('button', { name: 'Stay signed in' }));

  const dialog = await screen.findByRole('dialog', { name: 'Stay signed in' });
  expect(within(dialog).getByLabelText('Username')).toHaveValue('dana');
});

test('an expired session shows the dialog over the page', async () => {
  signInAs('dana', { minutesLeft: -1 });
  renderShell('/entities');

  expect(await screen.findByRole('dialog', { name: 'Your session has ended' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Load entities', hidden: true })).toBeInTheDocument();
});
