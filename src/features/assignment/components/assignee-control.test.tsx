import { notifications } from '@mantine/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { AssigneeControl } from './assignee-control.tsx';

// Mantine's Menu and Modal under jsdom on a shared 2-core machine can take seconds per step.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  // Unmount first: cleaning the notifications store notifies whatever is still rendered.
  cleanup();
  notifications.clean();
});

/** The server's assignee of entity `le-1`, changed by PUT and recording each body sent. */
function serveAssignee(initial: string | null) {
  const state = { assignee: initial, sent: [] as unknown[] };
  server.use(
    apiHandler('PUT /api/v2/entities/:id/assignee', async ({ request, params }) => {
      const body = (await request.json()) as { username: string | null };
      state.sent.push(body);
      const previous = state.assignee;
      state.assignee = body.username;
      return envelope({ entityId: String(params.id), assignedUser: body.username, previous });
    }),
  );
  return state;
}

/** The control as a page shows it: what it says is re-read from the server after each change. */
function Harness({
  state,
  variant,
  readOnly,
}: {
  state: { assignee: string | null };
  variant: 'page' | 'row';
  readOnly?: boolean;
}) {
  const [assignedUser, setAssignedUser] = useState(state.assignee);
  return (
    <AssigneeControl
      entityId="le-1"
      entityName="Acme Ltd"
      assignedUser={assignedUser}
      username="dana"
      variant={variant}
      readOnly={readOnly}
      onAssigned={() => {
        setAssignedUser(state.assignee);
        return Promise.resolve();
      }}
    />
  );
}

test('on the entity page a reviewer takes an unassigned entity, then unassigns it', async () => {
  const state = serveAssignee(null);
  const { user } = renderRoute(<Harness state={state} variant="page" />);
  const group = screen.getByRole('group', { name: 'Assignment' });
  expect(group).toHaveTextContent('Assigned to nobody');
  expect(within(group).queryByRole('button', { name: 'Unassign' })).not.toBeInTheDocument();

  await user.click(within(group).getByRole('button', { name: 'Assign to me' }));
  await waitFor(() => expect(group).toHaveTextContent('Assigned to you'));
  expect(state.sent).toEqual([{ username: 'dana' }]);
  expect(within(group).queryByRole('button', { name: 'Assign to me' })).not.toBeInTheDocument();

  await user.click(within(group).getByRole('button', { name: 'Unassign' }));
  await waitFor(() => expect(group).toHaveTextContent('Assigned to nobody'));
  expect(state.sent).toEqual([{ username: 'dana' }, { username: null }]);
});

test('"Assign to…" offers the server’s reviewers and shows its 400 on the username, keeping the dialog open', async () => {
  const sent: unknown[] = [];
  server.use(
    apiHandler('PUT /api/v2/entities/:id/assignee', async ({ request }) => {
      sent.push(await request.json());
      return apiError(400, 'The request is not valid.', [
        { field: 'username', message: 'carol is no enabled reviewer account.' },
      ]);
    }),
  );
  const { user } = renderRoute(<Harness state={{ assignee: 'alex' }} variant="page" />);
  expect(screen.getByRole('group', { name: 'Assignment' })).toHaveTextContent('Assigned to alex');

  await user.click(screen.getByRole('button', { name: 'Assign to…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Assign Acme Ltd' });
  // Nothing chosen: the dialog says so without asking the server.
  await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
  expect(within(dialog).getByText('Choose a reviewer.')).toBeInTheDocument();
  expect(sent).toEqual([]);

  await user.click(within(dialog).getByRole('combobox', { name: /Reviewer/ }));
  await user.click(await screen.findByRole('option', { name: 'Dana Reviewer (dana)' }));
  await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
  expect(await within(dialog).findByText('carol is no enabled reviewer account.')).toBeVisible();
  expect(sent).toEqual([{ username: 'dana' }]);
  expect(screen.getByRole('group', { name: 'Assignment' })).toHaveTextContent('Assigned to alex');
});

test('a refused "Assign to me" is said in a notification, and nothing changes', async () => {
  server.use(
    apiHandler('PUT /api/v2/entities/:id/assignee', () =>
      apiError(400, 'dana is no enabled reviewer account.', [
        { field: 'username', message: 'dana is no enabled reviewer account.' },
      ]),
    ),
  );
  const { user } = renderRoute(<Harness state={{ assignee: null }} variant="page" />);
  await user.click(screen.getByRole('button', { name: 'Assign to me' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Not assigned');
  expect(alert).toHaveTextContent('dana is no enabled reviewer account.');
  expect(screen.getByRole('group', { name: 'Assignment' })).toHaveTextContent('Assigned to nobody');
});

test('an auditor sees who, and is offered nothing', () => {
  renderRoute(<Harness state={{ assignee: 'alex' }} variant="page" readOnly />);
  const group = screen.getByRole('group', { name: 'Assignment' });
  expect(group).toHaveTextContent('Assigned to alex');
  expect(within(group).queryByRole('button')).not.toBeInTheDocument();
});

test('in a queue row one menu assigns to me, and then offers Unassign instead', async () => {
  const state = serveAssignee(null);
  const { user } = renderRoute(<Harness state={state} variant="row" />);

  await user.click(screen.getByRole('button', { name: 'Assignment of Acme Ltd' }));
  expect(screen.queryByRole('menuitem', { name: 'Unassign' })).not.toBeInTheDocument();
  await user.click(await screen.findByRole('menuitem', { name: 'Assign to me' }));
  await waitFor(() => expect(state.sent).toEqual([{ username: 'dana' }]));

  await user.click(screen.getByRole('button', { name: 'Assignment of Acme Ltd' }));
  expect(await screen.findByRole('menuitem', { name: 'Unassign' })).toBeInTheDocument();
  expect(screen.queryByRole('menuitem', { name: 'Assign to me' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('menuitem', { name: 'Unassign' }));
  await waitFor(() => expect(state.sent).toEqual([{ username: 'dana' }, { username: null }]));
});
