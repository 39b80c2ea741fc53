import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { buildLegalEntity } from '../../../contract/testing/factories.ts';
import { apiHandler, capabilities, envelope } from '../../testing/handlers.ts';
import { server } from '../../testing/msw-server.ts';
import { renderRoute } from '../../testing/render.tsx';
import { EntityDetailRoute } from './entity-detail-route.tsx';

// Whole pages with many role queries run slowly on a shared CI machine.
vi.setConfig({ testTimeout: 20_000 });

const company = buildLegalEntity({
  corporateInformation: { companyName: 'Harbour Freight GmbH' },
  // What the identity service might say: the gateway's own record is what counts.
  kycMetaData: { assignedUser: 'someone-upstream' },
});

test('in gateway mode the entity page shows and changes the gateway’s assignee', async () => {
  let assignee: string | null = 'colleague';
  const gateway = capabilities({
    mode: 'gateway',
    features: {
      ...capabilities().features,
      reviewQueue: false,
      recordVerification: false,
      documentDecisions: false,
      waitingForMe: false,
      overview: false,
    },
  });
  server.use(
    apiHandler('GET /api/capabilities', () => envelope(gateway)),
    apiHandler('GET /api/v2/entities/legal-entities/:id', () => envelope(company)),
    apiHandler('GET /api/v2/entities/:id/documents', () => envelope([])),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([]),
    ),
    apiHandler('GET /api/v2/client-update-configs', () => envelope([])),
    apiHandler('GET /api/v2/entities/:id/assignee', ({ params }) =>
      envelope({ entityId: String(params.id), assignedUser: assignee }),
    ),
    apiHandler('PUT /api/v2/entities/:id/assignee', async ({ params, request }) => {
      const previous = assignee;
      assignee = ((await request.json()) as { username: string | null }).username;
      return envelope({ entityId: String(params.id), assignedUser: assignee, previous });
    }),
  );
  renderRoute(<EntityDetailRoute />, {
    path: `/entities/${company.id}`,
    routePath: '/entities/:id',
  });
  const assignment = await screen.findByRole('group', { name: 'Assignment' });
  expect(await within(assignment).findByText('colleague')).toBeInTheDocument();
  expect(within(assignment).queryByText('someone-upstream')).not.toBeInTheDocument();

  await userEvent.click(within(assignment).getByRole('button', { name: 'Assign to me' }));
  expect(await within(assignment).findByText('you')).toBeInTheDocument();
  expect(assignee).toBe('reviewer');
});
