import { notifications } from '@mantine/notifications';
import { TextInput } from '@mantine/core';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { useParams } from 'react-router';
import { endSession, startSession } from '../features/auth/session/session-store.ts';
import { tokenFor } from '../features/auth/testing/fake-token.ts';
import { buildLegalEntity, buildNaturalPerson } from '../../contract/testing/factories.ts';
import { apiError, apiHandler, capabilities, envelope } from '../testing/handlers.ts';
import { server } from '../testing/msw-server.ts';
import { renderRoute } from '../testing/render.tsx';
import { AppLayout } from './app-layout.tsx';
import { useOfferEntityToPalette } from './palette-entity.tsx';

// Typing, a debounce and several requests per search; the shared test machine can be slow.
vi.setConfig({ testTimeout: 20_000 });

// The dialogs load on their first opening; compiled once here, they come within findBy's wait.
beforeAll(async () => {
  await import('../features/command-palette/components/palette-dialog.tsx');
  await import('../features/command-palette/components/shortcuts-help-dialog.tsx');
}, 60_000);

beforeEach(() => {
  // Any text is also searched as a company name and a last name; tests that care answer themselves.
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () => envelope([])),
    apiHandler('GET /api/v2/entities/natural-persons', () => envelope([])),
  );
});

afterEach(() => {
  cleanup();
  endSession({ byUser: false });
  notifications.clean();
});

function EntityPage() {
  const { id = '' } = useParams();
  useOfferEntityToPalette({ id, name: `Company ${id}` });
  return <h1>Entity {id}</h1>;
}

function renderShell(path = '/entities') {
  startSession(
    { token: tokenFor('dana'), expiresAt: new Date(Date.now() + 20 * 60_000).toISOString() },
    'dana',
  );
  return renderRoute(<p>unused</p>, {
    path,
    routePath: '/__unused',
    extraRoutes: [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { path: 'entities', element: <TextInput label="Note" /> },
          { path: 'entities/:id', element: <EntityPage /> },
          { path: 'entities/people/:id', element: <EntityPage /> },
          { path: 'search', element: <h1>Search page</h1> },
          { path: 'legal-entities/new', element: <h1>Onboarding page</h1> },
          { path: 'reviews', element: <h1>Review queue page</h1> },
        ],
      },
    ],
  });
}

const palette = () => screen.getByRole('dialog', { name: 'Command palette' });
const paletteInput = () => within(palette()).getByRole('combobox');

test('Ctrl+K opens the palette from anywhere, a text field included; Escape closes it', async () => {
  const { user } = renderShell();
  await user.click(await screen.findByLabelText('Note'));

  await user.keyboard('{Control>}k{/Control}');

  const dialog = await screen.findByRole('dialog', { name: 'Command palette' });
  expect(within(dialog).getByRole('combobox', { name: /jump to an entity/i })).toHaveFocus();
  const list = within(dialog).getByRole('listbox', { name: 'Results' });
  expect(within(list).getByRole('group', { name: 'Go to' })).toBeInTheDocument();
  expect(within(list).getByRole('option', { name: /Review queue/ })).toBeInTheDocument();
  expect(within(list).getByRole('option', { name: /Onboard legal entity/ })).toBeInTheDocument();
  await waitFor(() =>
    expect(within(list).getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true'),
  );
  expect(screen.getByLabelText('Note')).toHaveValue('');

  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('the header button opens the palette and typing filters its pages', async () => {
  const { user, router } = renderShell();
  // The first is the desktop header's; phones get an icon button of the same name.
  await user.click((await screen.findAllByRole('button', { name: /Jump to…/ }))[0] as HTMLElement);

  // The arrows move the selection, wrapping at both ends, and the field points at it.
  const options = within(palette()).getAllByRole('option');
  expect(options[0]).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{ArrowDown}');
  expect(options[1]).toHaveAttribute('aria-selected', 'true');
  expect(options[0]).toHaveAttribute('aria-selected', 'false');
  expect(paletteInput()).toHaveAttribute('aria-activedescendant', options[1]?.id);
  await user.keyboard('{ArrowUp}{ArrowUp}');
  expect(options.at(-1)).toHaveAttribute('aria-selected', 'true');

  await user.type(paletteInput(), 'onboard');
  const option = await within(palette()).findByRole('option', { name: /Onboard legal entity/ });
  expect(within(palette()).getAllByRole('option')).toHaveLength(1);
  await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
  expect(paletteInput()).toHaveAttribute('aria-activedescendant', option.id);

  await user.keyboard('{Enter}');
  await waitFor(() => expect(router.state.location.pathname).toBe('/legal-entities/new'));
});

test('typing a company name lists it by name and Enter opens its page', async () => {
  const northwind = buildLegalEntity();
  const searches: string[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', ({ request }) => {
      searches.push(new URL(request.url).searchParams.get('companyName') ?? '');
      return envelope([northwind.id]);
    }),
    apiHandler('GET /api/v2/entities/natural-persons', () => envelope([])),
    apiHandler('GET /api/v2/entities/legal-entities/:id', () => envelope(northwind)),
  );
  const { user, router } = renderShell();
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });

  await user.type(paletteInput(), 'Northwind');

  const option = await within(palette()).findByRole(
    'option',
    { name: 'Northwind Trading Ltd', description: 'Legal entity · GB · Accepted' },
    { timeout: 5000 },
  );
  // Debounced: one request for the whole word, none per keystroke.
  expect(searches).toEqual(['Northwind']);
  expect(within(palette()).getByRole('status')).toHaveTextContent('1 result');
  await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));

  await user.keyboard('{Enter}');
  expect(await screen.findByRole('heading', { name: `Entity ${northwind.id}` })).toBeVisible();
  expect(router.state.location.pathname).toBe(`/entities/${northwind.id}`);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('people are found by last name, and more matches than shown lead to the search page', async () => {
  const people = Array.from({ length: 7 }, (_, at) =>
    buildNaturalPerson({ personalInformation: { firstName: `Ada${at}`, lastName: 'Lovelace' } }),
  );
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () => envelope([])),
    apiHandler('GET /api/v2/entities/natural-persons', () =>
      envelope(people.map((person) => person.id)),
    ),
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
      const found = people.find((person) => person.id === params.id);
      return found ? envelope(found) : apiError(404, 'Natural person not found.');
    }),
  );
  const { user, router } = renderShell();
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });
  await user.type(paletteInput(), 'lovelace');

  const group = await within(palette()).findByRole('group', { name: 'People' }, { timeout: 5000 });
  await waitFor(() => expect(within(group).getAllByRole('option')).toHaveLength(6));
  expect(within(group).getByRole('option', { name: /Ada0 Lovelace/ })).toBeInTheDocument();
  expect(within(group).queryByRole('option', { name: /Ada5 Lovelace/ })).not.toBeInTheDocument();

  await user.click(within(group).getByRole('option', { name: /All 7 people matching/ }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
  expect(router.state.location.search).toBe('?in=people&lastName=lovelace');
});

test('a pasted ID offers to open that entity, tried as a legal entity and then as a person', async () => {
  const person = buildNaturalPerson();
  const lookups: string[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) => {
      lookups.push(`legal-entity ${String(params.id)}`);
      return apiError(404, 'Legal entity not found.');
    }),
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
      lookups.push(`natural-person ${String(params.id)}`);
      return envelope(person);
    }),
  );
  const { user, router } = renderShell();
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });

  await user.click(paletteInput());
  await user.paste(person.id);

  const option = within(palette()).getByRole('option', { name: `Open entity ${person.id}` });
  expect(option).toHaveAccessibleDescription('Looking it up…');
  await waitFor(() => expect(option).toHaveAccessibleDescription('Natural person · Amelia Hart'));
  expect(lookups).toEqual([`legal-entity ${person.id}`, `natural-person ${person.id}`]);

  await user.keyboard('{Enter}');
  expect(await screen.findByRole('heading', { name: `Entity ${person.id}` })).toBeVisible();
  expect(router.state.location.pathname).toBe(`/entities/people/${person.id}`);
});

test('? opens the shortcuts help, but not while typing in a field', async () => {
  const { user } = renderShell();
  const note = await screen.findByLabelText('Note');

  await user.click(note);
  await user.keyboard('?');
  expect(note).toHaveValue('?');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

  await user.click(screen.getByRole('main'));
  await user.keyboard('?');
  const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
  const table = within(help).getByRole('table', { name: 'Keyboard shortcuts' });
  expect(
    within(table).getByRole('row', { name: /Ctrl \+ K Open the command palette/ }),
  ).toBeInTheDocument();
  expect(within(table).getByRole('row', { name: /\? Show these shortcuts/ })).toBeInTheDocument();

  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('the help opens from the header button and from the palette', async () => {
  const { user } = renderShell();
  await user.click(await screen.findByRole('button', { name: 'Keyboard shortcuts' }));
  expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  await user.click(screen.getByLabelText('Note'));
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });
  await user.type(paletteInput(), 'shortcuts');
  const option = within(palette()).getByRole('option', { name: 'Keyboard shortcuts' });
  await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
  await user.keyboard('{Enter}');
  expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
  await waitFor(() =>
    expect(screen.queryByRole('dialog', { name: 'Command palette' })).not.toBeInTheDocument(),
  );
  // Closing the help puts focus back where it was before the palette opened.
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(screen.getByLabelText('Note')).toHaveFocus());
});

test('the audit log is offered to auditors only, the review queue only where it exists', async () => {
  const { user, unmount } = renderShell();
  await user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });
  const reviewerList = await within(palette()).findByRole('listbox');
  await within(reviewerList).findByRole('option', { name: /Review queue/ });
  expect(within(reviewerList).queryByRole('option', { name: /Audit log/ })).not.toBeInTheDocument();
  unmount();

  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(
        capabilities({
          mode: 'gateway',
          features: {
            reviewQueue: false,
            recordVerification: false,
            documentDecisions: false,
            notes: true,
            auditTrail: true,
            assignment: true,
            waitingForMe: false,
            overview: false,
            entityIndex: false,
          },
          account: { username: 'alex', role: 'auditor' },
        }),
      ),
    ),
  );
  const auditor = renderShell();
  await auditor.user.keyboard('{Control>}k{/Control}');
  // The palette's code loads on its first opening.
  await screen.findByRole('dialog', { name: 'Command palette' });
  const list = within(palette()).getByRole('listbox');
  expect(await within(list).findByRole('option', { name: /Audit log/ })).toBeInTheDocument();
  expect(within(list).queryByRole('option', { name: /Review queue/ })).not.toBeInTheDocument();
});

test('on an entity page the palette offers "Assign … to…", with the server’s reviewers', async () => {
  const sent: { id: unknown; body: unknown }[] = [];
  server.use(
    apiHandler('PUT /api/v2/entities/:id/assignee', async ({ request, params }) => {
      sent.push({ id: params.id, body: await request.json() });
      return envelope({ entityId: String(params.id), assignedUser: 'alex', previous: null });
    }),
  );
  const { user } = renderShell('/entities/acme-1');
  expect(await screen.findByRole('heading', { name: 'Entity acme-1' })).toBeInTheDocument();
  await user.keyboard('{Control>}k{/Control}');
  await screen.findByRole('dialog', { name: 'Command palette' });
  await user.type(paletteInput(), 'assign');
  await user.click(
    await within(palette()).findByRole('option', { name: /Assign Company acme-1 to…/ }),
  );

  const dialog = await screen.findByRole('dialog', { name: 'Assign Company acme-1' });
  await user.click(within(dialog).getByRole('combobox', { name: /Reviewer/ }));
  await user.click(await screen.findByRole('option', { name: 'Alex Reviewer (alex)' }));
  await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
  await waitFor(() => expect(sent).toEqual([{ id: 'acme-1', body: { username: 'alex' } }]));
  await waitFor(() =>
    expect(screen.queryByRole('dialog', { name: /Assign/ })).not.toBeInTheDocument(),
  );
});

test('away from an entity page the palette offers no "Assign to…"', async () => {
  const { user } = renderShell('/entities');
  await screen.findByLabelText('Note');
  await user.keyboard('{Control>}k{/Control}');
  await screen.findByRole('dialog', { name: 'Command palette' });
  await user.type(paletteInput(), 'assign');
  await waitFor(() =>
    expect(within(palette()).queryByRole('option', { name: /Assign/ })).not.toBeInTheDocument(),
  );
});
