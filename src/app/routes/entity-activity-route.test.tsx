import { screen, within } from '@testing-library/react';
import { auditPage, buildAuditEvent } from '../../features/audit/testing/audit-fixtures.ts';
import { buildLegalEntity } from '../../../contract/testing/factories.ts';
import { apiError, apiHandler, capabilities, envelope } from '../../testing/handlers.ts';
import { server } from '../../testing/msw-server.ts';
import { renderRoute } from '../../testing/render.tsx';
import { EntityDetailRoute } from './entity-detail-route.tsx';

vi.setConfig({ testTimeout: 20_000 });

const company = buildLegalEntity({
  corporateInformation: { companyName: 'Northwind Trading Ltd' },
});

function serveEntity() {
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) =>
      params.id === company.id ? envelope(company) : apiError(404, 'No legal entity with this ID.'),
    ),
    apiHandler('GET /api/v2/entities/natural-persons/:id', () =>
      apiError(404, 'No natural person with this ID.'),
    ),
    apiHandler('GET /api/v2/entities/:id/documents', () => envelope([])),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([]),
    ),
    apiHandler('GET /api/v2/client-update-configs', () => envelope([])),
    apiHandler('GET /api/v2/entities/:id/audit-events', ({ params, request }) =>
      new URL(request.url).searchParams.get('kind') === 'views'
        ? auditPage([
            buildAuditEvent({ action: 'entity.view', actor: 'lee', entityId: String(params.id) }),
          ])
        : auditPage([
            buildAuditEvent({
              action: 'note.add',
              actor: 'dana',
              entityId: String(params.id),
              detail: { length: 4 },
            }),
          ]),
    ),
  );
}

function renderEntity(id: string) {
  return renderRoute(<EntityDetailRoute />, {
    path: `/entities/${id}`,
    routePath: '/entities/:id',
  });
}

test('the entity page shows its Activity when the server records an audit trail', async () => {
  serveEntity();
  renderEntity(company.id);

  // The page renders in a deferred transition, slow on a busy CI machine.
  const activity = await screen.findByRole('region', { name: 'Activity' }, { timeout: 10_000 });
  expect(await within(activity).findByText('Added a note')).toBeInTheDocument();
  expect(within(activity).getByText('by dana')).toBeInTheDocument();
  expect(
    await within(activity).findByRole('button', { name: 'Show views (1)' }),
  ).toBeInTheDocument();
});

test('no Activity where the server offers no audit trail, nor under "Entity not found"', async () => {
  serveEntity();
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(
        capabilities({
          features: { ...capabilities().features, auditTrail: false },
        }),
      ),
    ),
  );
  const { unmount } = renderEntity(company.id);
  expect(
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Northwind Trading Ltd' },
      { timeout: 10_000 },
    ),
  ).toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'Activity' })).not.toBeInTheDocument();
  unmount();

  server.resetHandlers();
  serveEntity();
  renderEntity('00000000-0000-4000-8000-0000000000ff');
  expect(
    await screen.findByRole('heading', { name: 'Entity not found' }, { timeout: 10_000 }),
  ).toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'Activity' })).not.toBeInTheDocument();
});
