import { cleanup, screen, waitFor } from '@testing-library/react';
import { apiError, apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { SESSION_STORAGE_KEY, endSession, getSession } from '../session/session-store.ts';
import { tokenFor } from '../testing/fake-token.ts';
import { LoginPage } from './login-page.tsx';

// Whole journeys with typing and several renders; the shared test machine can be slow.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  // The page follows the session store: unmount it before the store is reset.
  cleanup();
  endSession({ byUser: false });
  localStorage.clear();
});

function renderLogin(path = '/login') {
  return renderRoute(<LoginPage />, {
    path,
    routePath: '/login',
    extraRoutes: [
      { path: '/entities', element: <p>Entity list</p> },
      { path: '/entities/:id', element: <p>Entity detail</p> },
    ],
  });
}

test('empty fields show what is missing and send nothing', async () => {
  const signIns = vi.fn();
  server.use(
    apiHandler('POST /api/gettoken', () => {
      signIns();
      return { token: tokenFor('dana') };
    }),
  );
  const { user } = renderLogin();
  await user.click(await screen.findByRole('button', { name: 'Sign in' }));

  expect(await screen.findByText('Enter your username.')).toBeInTheDocument();
  expect(screen.getByText('Enter your password.')).toBeInTheDocument();
  expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
  expect(signIns).not.toHaveBeenCalled();
});

test('wrong credentials show the message from the server and keep the user here', async () => {
  server.use(
    apiHandler('POST /api/gettoken', () =>
      apiError(401, 'The username or password is incorrect, or the account is disabled.'),
    ),
  );
  const { user, router } = renderLogin('/login?next=/search');
  await user.type(await screen.findByLabelText('Username'), 'dana');
  await user.type(screen.getByLabelText('Password'), 'not-the-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));

  expect(await screen.findByRole('alert')).toHaveTextContent(
    'The username or password is incorrect, or the account is disabled.',
  );
  expect(router.state.location.pathname).toBe('/login');
  expect(getSession()).toBeNull();
  expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
});

test.each([
  ['540', 'Too many attempts. Try again in 9 minutes.'],
  ['900', 'Too many attempts. Try again in 15 minutes.'],
  ['59', 'Too many attempts. Try again in 1 minute.'],
  [undefined, 'Too many failed sign-ins. Try again in 540 seconds.'],
])('a 429 with Retry-After %s says in words how long to wait', async (retryAfter, expected) => {
  server.use(
    apiHandler('POST /api/gettoken', () =>
      apiError(
        429,
        'Too many failed sign-ins. Try again in 540 seconds.',
        undefined,
        retryAfter === undefined ? undefined : { 'Retry-After': retryAfter },
      ),
    ),
  );
  const { user } = renderLogin();
  await user.type(await screen.findByLabelText('Username'), 'dana');
  await user.type(screen.getByLabelText('Password'), 'guess');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));

  expect(await screen.findByRole('alert')).toHaveTextContent(expected);
});

test('signing in posts the form fields, stores the token in sessionStorage and opens next', async () => {
  const token = tokenFor('dana', 20, 'Dana Reviewer');
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  let sent: { contentType: string | null; fields: Record<string, string> } | null = null;
  server.use(
    apiHandler('POST /api/gettoken', async ({ request }) => {
      sent = {
        contentType: request.headers.get('Content-Type'),
        fields: Object.fromEntries(new URLSearchParams(await request.text())),
      };
      await answered;
      // The real service answers with the token alone.
      return { token };
    }),
  );
  const next = '/entities/00000000-0000-4000-8000-000000000042';
  const { user, router } = renderLogin(`/login?next=${encodeURIComponent(next)}`);
  await user.type(await screen.findByLabelText('Username'), '  dana ');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));

  await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled());
  release();

  expect(await screen.findByText('Entity detail')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe(next);
  expect(sent).toEqual({
    contentType: expect.stringContaining('application/x-www-form-urlencoded') as unknown,
    fields: { Username: 'dana', Password: 'correct horse' },
  });
  expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({
    token,
    username: 'dana',
    displayName: 'Dana Reviewer',
  });
  expect(localStorage.length).toBe(0);
});

test('a next pointing at another site is ignored in favour of the entity list', async () => {
  server.use(apiHandler('POST /api/gettoken', () => ({ token: tokenFor('dana') })));
  const { user, router } = renderLogin('/login?next=//evil.example/entities');
  await user.type(await screen.findByLabelText('Username'), 'dana');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));

  expect(await screen.findByText('Entity list')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/entities');
});

test('signed out in another tab, the page says so instead of the hint about tabs', async () => {
  const { user } = renderLogin();
  await user.type(await screen.findByLabelText('Username'), 'dana');
  expect(screen.getByText(/No signed-in KYC Desk tab is open/)).toBeInTheDocument();
  cleanup();
  endSession({ byUser: true, signedOutBy: 'other-tab' });
  renderLogin();
  expect(await screen.findByText('You signed out in another tab')).toBeInTheDocument();
  expect(screen.queryByText(/No signed-in KYC Desk tab is open/)).not.toBeInTheDocument();
});
