import { screen, waitFor, within } from '@testing-library/react';
import {
  buildDocument,
  buildLegalEntity,
  buildNaturalPerson,
  buildVerification,
} from '../../../contract/testing/factories.ts';
import { apiError, apiHandler, capabilities, envelope } from '../../testing/handlers.ts';
import { server } from '../../testing/msw-server.ts';
import { renderRoute } from '../../testing/render.tsx';
import type { LegalEntity, NaturalPerson } from '../../../contract/entities.ts';
import { EntityDetailRoute, NaturalPersonDetailRoute } from './entity-detail-route.tsx';

// Whole pages with many role queries run slowly on a shared CI machine.
vi.setConfig({ testTimeout: 20_000 });

const ceo = buildNaturalPerson({
  personalInformation: {
    firstName: 'Oliver',
    lastName: 'Stone',
    email: 'oliver@northwind.example',
  },
});
const contact = buildNaturalPerson({
  personalInformation: { firstName: 'Amelia', middleName: 'Rose', lastName: 'Hart' },
});
const company = buildLegalEntity({
  corporateInformation: { companyName: 'Northwind Trading Ltd', duns: '004567890' },
  corporateVerifications: [
    buildVerification({
      verificationStatus: 'Accepted',
      verificationDate: '2026-01-15',
      verificationSource: 'Manual Entry',
      businessStatement: 'Wholesale of industrial fasteners.',
      nextReviewDate: '2020-01-15',
      verificationIssues: [],
    }),
    buildVerification({
      verificationStatus: 'Escalated',
      verificationDate: '2025-03-02',
      verificationSource: 'Companies House',
      businessStatement: 'Import of fasteners.',
      nextReviewDate: '2099-03-02',
      verificationIssues: [
        'Director address unconfirmed',
        { description: 'Sanctions hit to clear' },
      ],
    }),
  ],
  linkedEntities: [
    { relationship: 'CEO', entityID: ceo.id },
    { relationship: 'Director', entityID: contact.id },
    { relationship: 'Primary Contact', entityID: contact.id },
  ],
});
const documents = [
  buildDocument({ fileName: 'utility-bill.pdf', documentApproved: true }),
  buildDocument({ fileName: 'bank-statement.pdf', type: 'Bank Statement' }),
];

function serveEverything({
  legalEntities = [company],
  people = [ceo, contact],
}: { legalEntities?: LegalEntity[]; people?: NaturalPerson[] } = {}) {
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) => {
      const found = legalEntities.find((entity) => entity.id === params.id);
      return found
        ? envelope(found)
        : apiError(404, `No legal entity with ID ${String(params.id)}.`);
    }),
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
      const found = people.find((person) => person.id === params.id);
      return found
        ? envelope(found)
        : apiError(404, `No natural person with ID ${String(params.id)}.`);
    }),
    apiHandler('GET /api/v2/entities/:id/documents', () => envelope(documents)),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([]),
    ),
    apiHandler('GET /api/v2/client-update-configs', () => envelope([])),
  );
}

function renderEntity(id: string) {
  return renderRoute(<EntityDetailRoute />, {
    path: `/entities/${id}`,
    routePath: '/entities/:id',
    extraRoutes: [{ path: '/entities', element: <h1>Entity list</h1> }],
  });
}

/** The sections come one commit after another once the header is painted (AfterFirstPaint). */
function section(name: string) {
  return screen.findByRole('region', { name });
}

test('a legal entity shows its header, corporate information, KYC, verifications, people and documents', async () => {
  serveEverything();
  renderEntity(company.id);

  expect(
    await screen.findByRole('heading', { level: 1, name: 'Northwind Trading Ltd' }),
  ).toBeInTheDocument();
  expect(screen.getByText('Legal entity')).toBeInTheDocument();
  expect(screen.getByText(company.id)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Copy entity ID' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Copy external ID' })).toBeInTheDocument();
  expect(screen.getByText('Low risk')).toBeInTheDocument();

  const corporate = within(await section('Corporate information'));
  expect(corporate.getByText('09876543')).toBeInTheDocument();
  expect(corporate.getByText('1 Jun 2015')).toBeInTheDocument();
  expect(corporate.getByText('United Kingdom (GB)')).toBeInTheDocument();
  expect(corporate.getByText('004567890')).toBeInTheDocument();
  expect(corporate.getByText('5493001KJTIIGC8Y1R12')).toBeInTheDocument();
  expect(corporate.getByRole('button', { name: 'Copy LEI' })).toBeInTheDocument();
  expect(corporate.getByRole('link', { name: 'info@northwind.example' })).toHaveAttribute(
    'href',
    'mailto:info@northwind.example',
  );
  expect(corporate.getByText('EC1A 1BB')).toBeInTheDocument();

  const kyc = within(await section('KYC'));
  expect(kyc.getByText('NW-001')).toBeInTheDocument();
  // The newest verification's next review (decisions.md), not the 15 Jan 2027 the record stored.
  expect(kyc.getByText('15 Jan 2020')).toBeInTheDocument();

  const verifications = within(await section('Verifications')).getAllByRole('article');
  expect(verifications).toHaveLength(2);
  const [latest, older] = verifications as [HTMLElement, HTMLElement];
  expect(within(latest).getByText('Accepted')).toBeInTheDocument();
  expect(within(latest).getByText('15 Jan 2026')).toBeInTheDocument();
  expect(within(latest).getByText('Manual Entry')).toBeInTheDocument();
  expect(within(latest).getByText('Wholesale of industrial fasteners.')).toBeInTheDocument();
  expect(within(latest).getByText(/^Overdue by \d+ days$/)).toBeInTheDocument();
  expect(within(latest).getByText('No issues')).toBeInTheDocument();
  expect(within(older).getByText('Escalated')).toBeInTheDocument();
  const issues = within(within(older).getByRole('list', { name: 'Issues' })).getAllByRole(
    'listitem',
  );
  expect(issues.map((item) => item.textContent)).toEqual([
    'Director address unconfirmed',
    'Sanctions hit to clear',
  ]);

  const people = within(await section('Linked people'));
  const primary = await people.findByRole('link', { name: 'Amelia Rose Hart' });
  const other = await people.findByRole('link', { name: 'Oliver Stone' });
  expect(primary).toHaveAttribute('href', `/entities/people/${contact.id}`);
  expect(other).toHaveAttribute('href', `/entities/people/${ceo.id}`);
  const items = people.getAllByRole('listitem');
  expect(items).toHaveLength(2);
  expect(items[0]).toHaveTextContent('Amelia Rose Hart');
  expect(items[0]).toHaveTextContent('Primary Contact');
  expect(items[0]).toHaveTextContent('Director');
  expect(items[1]).toHaveTextContent('Oliver Stone');
  expect(items[1]).toHaveTextContent('CEO');

  const documentsSection = within(await section('Supporting documents'));
  expect(
    await documentsSection.findByRole('button', { name: 'View utility-bill.pdf' }),
  ).toBeInTheDocument();
  expect(
    documentsSection.getByRole('button', { name: 'View bank-statement.pdf' }),
  ).toBeInTheDocument();

  expect(await screen.findByRole('heading', { name: 'Client updates' })).toBeInTheDocument();
});

test('the copy button puts the entity ID on the clipboard', async () => {
  serveEverything();
  const { user } = renderEntity(company.id);
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  await user.click(await screen.findByRole('button', { name: 'Copy entity ID' }));
  expect(writeText).toHaveBeenCalledWith(company.id);
  await expect(navigator.clipboard.readText()).resolves.toBe(company.id);
  // The hover's tooltip transition settles inside the test, not after it.
  await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Copied'));
});

test('a natural person shows personal information, KYC and linked legal entities', async () => {
  const person = buildNaturalPerson({
    personalInformation: {
      firstName: 'Oliver',
      lastName: 'Stone',
      dateOfBirth: '1979-11-03',
      countryCode: 'IE',
      linkedEntities: [{ relationship: 'Director', entityID: company.id }],
    },
  });
  serveEverything({ people: [person] });
  renderEntity(person.id);

  expect(
    await screen.findByRole('heading', { level: 1, name: 'Oliver Stone' }),
  ).toBeInTheDocument();
  expect(screen.getByText('Natural person')).toBeInTheDocument();
  const personal = within(await section('Personal information'));
  expect(personal.getByText('3 Nov 1979')).toBeInTheDocument();
  expect(personal.getByText('Ireland (IE)')).toBeInTheDocument();
  expect(within(await section('KYC')).getByText('Pending')).toBeInTheDocument();
  const link = await within(await section('Linked legal entities')).findByRole('link', {
    name: 'Northwind Trading Ltd',
  });
  expect(link).toHaveAttribute('href', `/entities/${company.id}`);
  expect(within(await section('Linked legal entities')).getByText('Director')).toBeInTheDocument();
  expect(
    await within(await section('Supporting documents')).findByRole('button', {
      name: 'View utility-bill.pdf',
    }),
  ).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Client updates' })).not.toBeInTheDocument();
});

test('an ID that is neither kind gives a not-found page with a way back', async () => {
  serveEverything();
  const { user, router } = renderEntity('no-such-entity');
  expect(await screen.findByRole('heading', { name: 'Entity not found' })).toBeInTheDocument();
  expect(screen.getByText(/No entity with ID/)).toHaveTextContent(
    'No entity with ID no-such-entity.',
  );
  await user.click(screen.getByRole('link', { name: 'Back to entities' }));
  expect(router.state.location.pathname).toBe('/entities');
  expect(await screen.findByRole('heading', { name: 'Entity list' })).toBeInTheDocument();
});

test('a failure other than 404 shows the server message and Retry loads the entity', async () => {
  serveEverything();
  let failed = false;
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id', () => {
      if (!failed) {
        failed = true;
        return apiError(503, 'The identity service is busy. Try again in a moment.');
      }
      return envelope(company);
    }),
  );
  const { user } = renderEntity(company.id);
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'The identity service is busy. Try again in a moment.',
  );
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Northwind Trading Ltd' }),
  ).toBeInTheDocument();
});

test('a failure reading the natural person after a 404 shows its message with Retry', async () => {
  serveEverything({ legalEntities: [] });
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons/:id', () =>
      apiError(500, 'Something went wrong on our side.'),
    ),
  );
  renderEntity(contact.id);
  expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on our side.');
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
});

test('the details wait for the capabilities, so the review panel never pushes them down', async () => {
  serveEverything();
  let entityServed = false;
  let answerCapabilities: () => void = () => undefined;
  const capabilitiesAnswered = new Promise<void>((resolve) => {
    answerCapabilities = resolve;
  });
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities/:id', () => {
      entityServed = true;
      return envelope(company);
    }),
    apiHandler('GET /api/capabilities', async () => {
      await capabilitiesAnswered;
      return envelope(capabilities());
    }),
  );
  renderEntity(company.id);
  await waitFor(() => expect(entityServed).toBe(true));
  expect(screen.getByRole('status', { name: 'Loading entity' })).toBeInTheDocument();
  expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();

  answerCapabilities();
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Northwind Trading Ltd' }),
  ).toBeInTheDocument();
  expect(await screen.findByRole('heading', { name: 'Review decision' })).toBeInTheDocument();
});

test('capabilities that fail to load do not hold the page: it shows without the review panel', async () => {
  serveEverything();
  server.use(
    apiHandler('GET /api/capabilities', () => apiError(500, 'Something went wrong on our side.')),
  );
  renderEntity(company.id);
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Northwind Trading Ltd' }),
  ).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Review decision' })).not.toBeInTheDocument();
});

test('a person’s link asks the person endpoint once and never the legal-entity one', async () => {
  const person = buildNaturalPerson({
    personalInformation: { firstName: 'Oliver', lastName: 'Stone' },
  });
  serveEverything({ people: [person] });
  const entityRequests: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const { pathname } = new URL(request.url);
    if (/^\/api\/v2\/entities\/(legal-entities|natural-persons)\/[^/]+$/.test(pathname)) {
      entityRequests.push(pathname);
    }
  });
  renderRoute(<NaturalPersonDetailRoute />, {
    path: `/entities/people/${person.id}`,
    routePath: '/entities/people/:id',
  });

  expect(
    await screen.findByRole('heading', { level: 1, name: 'Oliver Stone' }),
  ).toBeInTheDocument();
  await waitFor(() => expect(document.title).toBe('Oliver Stone — KYC Desk'));
  server.events.removeAllListeners('request:start');
  expect(entityRequests).toEqual([`/api/v2/entities/natural-persons/${person.id}`]);
});
