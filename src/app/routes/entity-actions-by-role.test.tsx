import { screen, within } from '@testing-library/react';
import type { Role } from '../../../contract/audit.ts';
import type { PendingVerification } from '../../../contract/decisions.ts';
import {
  buildDocument,
  buildLegalEntity,
  buildNaturalPerson,
} from '../../../contract/testing/factories.ts';
import { apiError, apiHandler, capabilities, envelope } from '../../testing/handlers.ts';
import { server } from '../../testing/msw-server.ts';
import { renderRoute } from '../../testing/render.tsx';
import { EntityDetailRoute } from './entity-detail-route.tsx';
import { OnboardingRoute } from './onboarding-route.tsx';

// Whole pages with many role queries run slowly on a shared CI machine.
vi.setConfig({ testTimeout: 20_000 });

const contact = buildNaturalPerson({
  personalInformation: { firstName: 'Ada', lastName: 'Byrne', email: 'ada@example.com' },
});
const company = buildLegalEntity({
  corporateInformation: { companyName: 'Northwind Trading Ltd' },
  linkedEntities: [{ relationship: 'Primary Contact', entityID: contact.id }],
});
const heldAcceptance: PendingVerification = {
  kind: 'verification',
  id: 'pv-1',
  entityId: company.id,
  verification: {
    legalEntityVerification: true,
    verificationStatus: 'Accepted',
    verificationDate: '2026-06-15',
    verificationSource: 'Companies House',
    businessStatement: 'Holding company.',
    nextReviewDate: '2027-06-15',
    verificationIssues: [],
  },
  rule: 'high',
  requestedBy: 'alice',
  requestedAt: '2026-06-15T09:30:00.000Z',
  state: 'pending',
  decidedBy: null,
  decidedAt: null,
  reason: null,
};

function serveEntityAs(role: Role, pending: PendingVerification[] = []) {
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(capabilities({ account: { username: 'carol', role } })),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) =>
      params.id === company.id ? envelope(company) : apiError(404, 'No legal entity.'),
    ),
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) =>
      params.id === contact.id ? envelope(contact) : apiError(404, 'No natural person.'),
    ),
    apiHandler('GET /api/v2/entities/:id/documents', () =>
      envelope([buildDocument({ fileName: 'passport.pdf' })]),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([]),
    ),
    apiHandler('GET /api/v2/client-update-configs', () => envelope([])),
    apiHandler('GET /api/v2/entities/legal-entities/:id/pending-verifications', () =>
      envelope(pending),
    ),
    apiHandler('GET /api/v2/entities/:id/audit-events', () => ({
      ...envelope([]),
      nextCursor: null,
    })),
  );
}

async function renderEntityPage() {
  const rendered = renderRoute(<EntityDetailRoute />, {
    path: `/entities/${company.id}`,
    routePath: '/entities/:id',
  });
  // The page renders in a deferred transition, slow on a busy CI machine.
  expect(
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Northwind Trading Ltd' },
      { timeout: 10_000 },
    ),
  ).toBeInTheDocument();
  // The last sections to arrive: once they show, every action that will show has.
  expect(await screen.findByText('passport.pdf')).toBeInTheDocument();
  expect(await screen.findByRole('region', { name: 'Notes' })).toBeInTheDocument();
  expect(await screen.findByText('No notes yet.', { exact: false })).toBeInTheDocument();
  expect(await screen.findByRole('heading', { name: 'Client updates' })).toBeInTheDocument();
  expect(await screen.findByRole('region', { name: 'Activity' })).toBeInTheDocument();
  return rendered;
}

const button = (name: string) => screen.queryByRole('button', { name });

test('a reviewer is offered every action on the entity page', async () => {
  serveEntityAs('reviewer');
  await renderEntityPage();

  expect(await screen.findByRole('button', { name: 'Record outcome' })).toBeInTheDocument();
  expect(button('Approve passport.pdf')).toBeInTheDocument();
  expect(button('Reject passport.pdf')).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Add a note' })).toBeInTheDocument();
  expect(button('Add note')).toBeInTheDocument();
  expect(button('Request update')).toBeInTheDocument();
});

test('an auditor reads the entity page with no action on it', async () => {
  serveEntityAs('auditor');
  await renderEntityPage();

  expect(screen.getByRole('region', { name: 'Activity' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Client updates' })).toBeInTheDocument();
  expect(screen.getByText('No notes yet.')).toBeInTheDocument();
  expect(button('Record outcome')).not.toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'Review decision' })).not.toBeInTheDocument();
  expect(button('Approve passport.pdf')).not.toBeInTheDocument();
  expect(button('Reject passport.pdf')).not.toBeInTheDocument();
  expect(screen.queryByRole('textbox', { name: 'Add a note' })).not.toBeInTheDocument();
  expect(button('Add note')).not.toBeInTheDocument();
  expect(button('Request update')).not.toBeInTheDocument();
});

test('a held decision: a reviewer may confirm or reject it, an auditor only sees it waiting', async () => {
  serveEntityAs('reviewer', [heldAcceptance]);
  const { unmount } = await renderEntityPage();
  const held = await screen.findByRole('group', { name: 'Decision waiting for a second reviewer' });
  expect(within(held).getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
  expect(within(held).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
  unmount();

  server.resetHandlers();
  serveEntityAs('auditor', [heldAcceptance]);
  await renderEntityPage();
  const seen = await screen.findByRole('group', { name: 'Decision waiting for a second reviewer' });
  expect(within(seen).getByText('Waiting for a second reviewer')).toBeInTheDocument();
  expect(within(seen).getByText('alice')).toBeInTheDocument();
  expect(within(seen).queryByRole('button')).not.toBeInTheDocument();
  expect(button('Record outcome')).not.toBeInTheDocument();
});

test('an auditor who opens onboarding is told plainly and shown the way back', async () => {
  server.use(
    apiHandler('GET /api/capabilities', () =>
      envelope(capabilities({ account: { username: 'carol', role: 'auditor' } })),
    ),
  );
  const { user, router } = renderRoute(<OnboardingRoute />, {
    path: '/legal-entities/new',
    routePath: '/legal-entities/new',
    extraRoutes: [{ path: '/entities', element: <h1>Entity list</h1> }],
  });

  expect(
    await screen.findByRole('heading', { level: 1, name: 'Auditors cannot create entities' }),
  ).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Onboard a legal entity' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /create/i })).not.toBeInTheDocument();
  await user.click(screen.getByRole('link', { name: 'Back to entities' }));
  expect(await screen.findByRole('heading', { name: 'Entity list' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/entities');
});

test('a reviewer who opens onboarding gets the form', async () => {
  renderRoute(<OnboardingRoute />, {
    path: '/legal-entities/new',
    routePath: '/legal-entities/new',
  });
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Onboard a legal entity' }),
  ).toBeInTheDocument();
  expect(screen.queryByText('Auditors cannot create entities')).not.toBeInTheDocument();
});
