import { act, screen, waitFor, within } from '@testing-library/react';
import type { LegalEntity, NaturalPerson } from '../../../../contract/entities.ts';
import {
  legalEntitySearchQuerySchema,
  naturalPersonSearchQuerySchema,
} from '../../../../contract/entities.ts';
import { buildLegalEntity, buildNaturalPerson } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { SearchPage } from './search-page.tsx';
import { DETAIL_CONCURRENCY } from './use-entity-details.ts';

// Mantine and user-event are slow on the shared 2-core machines; the assertions themselves are not timed.
vi.setConfig({ testTimeout: 20_000 });

function companies(count: number): LegalEntity[] {
  return Array.from({ length: count }, (_, index) =>
    buildLegalEntity({ corporateInformation: { companyName: `Northwind ${index + 1}` } }),
  );
}

/** Search checks its query with the contract (400 otherwise) and records it; details come by id. */
function serveSearch(entities: LegalEntity[]) {
  const searches: Record<string, string>[] = [];
  const detailRequests: string[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      const parsed = legalEntitySearchQuerySchema.safeParse(params);
      if (!parsed.success) return apiError(400, 'The search query is not valid.');
      searches.push(params);
      return envelope(entities.map((entity) => entity.id));
    }),
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) => {
      const id = String(params.id);
      detailRequests.push(id);
      const entity = entities.find((candidate) => candidate.id === id);
      return entity ? envelope(entity) : apiError(404, `No legal entity ${id}.`);
    }),
  );
  return { searches, detailRequests };
}

function renderSearch(path = '/search') {
  return renderRoute(<SearchPage />, { path, routePath: '/search' });
}

test('asks for at least one field and sends nothing when all are empty', async () => {
  const { searches } = serveSearch([]);
  const { user, router } = renderSearch();
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('Fill in at least one field to search.')).toBeInTheDocument();
  expect(searches).toHaveLength(0);
  expect(router.state.location.search).toBe('');
});

test('checks DUNS, e-mail and LEI before sending', async () => {
  const { searches } = serveSearch([]);
  const { user, router } = renderSearch();
  await user.type(screen.getByLabelText('DUNS'), '12-345');
  await user.type(screen.getByLabelText('Primary contact e-mail'), 'not-an-address');
  await user.type(screen.getByLabelText('LEI'), '5493001KJT');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('A DUNS number has digits only, at most 9.')).toBeInTheDocument();
  expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
  expect(screen.getByText('An LEI has exactly 20 letters and digits.')).toBeInTheDocument();
  expect(screen.getByLabelText('DUNS')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByLabelText('Company name')).not.toHaveAttribute('aria-invalid', 'true');
  expect(searches).toHaveLength(0);
  expect(router.state.location.search).toBe('');
});

test('a search updates the address and lists every match as it loads', async () => {
  const entities = companies(3);
  const { searches } = serveSearch(entities);
  const { user, router } = renderSearch();
  await user.type(screen.getByLabelText('Company name'), '  northwind ');
  await user.type(screen.getByLabelText('DUNS'), '4567890');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('3 matches, 3 loaded')).toBeInTheDocument();
  expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
    companyName: 'northwind',
    duns: '4567890',
  });
  expect(searches).toEqual([{ companyName: 'northwind', duns: '4567890' }]);
  const table = screen.getByRole('table', { name: 'Search results' });
  for (const entity of entities) {
    expect(
      within(table).getByRole('link', { name: entity.corporateInformation.companyName }),
    ).toHaveAttribute('href', `/entities/${entity.id}`);
  }
});

test('opening a search address fills the form and runs the search', async () => {
  const [entity] = companies(1);
  const { searches } = serveSearch(entity ? [entity] : []);
  renderSearch('/search?registrationNumber=09876543&email=ops%40northwind.example');
  expect(await screen.findByText('1 match, 1 loaded')).toBeInTheDocument();
  expect(screen.getByLabelText('Registration number')).toHaveValue('09876543');
  expect(screen.getByLabelText('Primary contact e-mail')).toHaveValue('ops@northwind.example');
  expect(searches).toEqual([{ registrationNumber: '09876543', email: 'ops@northwind.example' }]);
});

test('an address with a malformed value shows the error and sends nothing', async () => {
  const { searches } = serveSearch([]);
  renderSearch('/search?duns=abc');
  expect(await screen.findByText('A DUNS number has digits only, at most 9.')).toBeInTheDocument();
  expect(screen.getByLabelText('DUNS')).toHaveValue('abc');
  expect(searches).toHaveLength(0);
});

test('Back returns to the previous search', async () => {
  serveSearch(companies(2));
  const { user, router } = renderSearch('/search?companyName=first');
  await screen.findByText('2 matches, 2 loaded');
  const name = screen.getByLabelText('Company name');
  await user.clear(name);
  await user.type(name, 'second');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  await waitFor(() => expect(router.state.location.search).toBe('?companyName=second'));
  await act(() => router.navigate(-1));
  expect(router.state.location.search).toBe('?companyName=first');
  await waitFor(() => expect(screen.getByLabelText('Company name')).toHaveValue('first'));
});

test(`loads details at most ${DETAIL_CONCURRENCY} at a time and shows them as they arrive`, async () => {
  const entities = companies(10);
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () =>
      envelope(entities.map((entity) => entity.id)),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id', async ({ params }) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Each request waits until the test lets it go, so the overlap is decided here, not by timing.
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight -= 1;
      const entity = entities.find((candidate) => candidate.id === params.id);
      return entity ? envelope(entity) : apiError(404, 'Unknown id.');
    }),
  );
  renderSearch('/search?companyName=northwind');
  await waitFor(() => expect(waiting).toHaveLength(DETAIL_CONCURRENCY));
  expect(screen.getByText('10 matches, 0 loaded')).toBeInTheDocument();
  for (let loaded = 1; loaded <= entities.length; loaded += 1) {
    const next = waiting.shift();
    if (!next) throw new Error('no request is waiting');
    next();
    expect(await screen.findByText(`10 matches, ${loaded} loaded`)).toBeInTheDocument();
    const expectedWaiting = Math.min(DETAIL_CONCURRENCY, entities.length - loaded);
    await waitFor(() => expect(waiting).toHaveLength(expectedWaiting));
    expect(inFlight).toBe(expectedWaiting);
  }
  expect(maxInFlight).toBe(DETAIL_CONCURRENCY);
  expect(screen.getByRole('link', { name: 'Northwind 1' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Northwind 10' })).toBeInTheDocument();
});

test('a detail that fails says so on its row and the others still show', async () => {
  const [entity] = companies(1);
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () =>
      envelope([entity?.id ?? '', 'gone-id']),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id', ({ params }) =>
      params.id === entity?.id && entity
        ? envelope(entity)
        : apiError(404, 'No legal entity gone-id.'),
    ),
  );
  renderSearch('/search?companyName=northwind');
  expect(await screen.findByText('2 matches, 2 loaded')).toBeInTheDocument();
  expect(
    screen.getByText('Could not load this entity: No legal entity gone-id.'),
  ).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'gone-id' })).toHaveAttribute(
    'href',
    '/entities/gone-id',
  );
});

test('no match shows an empty state', async () => {
  serveSearch([]);
  renderSearch('/search?glei=5493001KJTIIGC8Y1R12');
  expect(await screen.findByText('No legal entities match')).toBeInTheDocument();
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
});

test("a failed search shows the envelope's message and Retry searches again", async () => {
  let calls = 0;
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () => {
      calls += 1;
      return calls === 1 ? apiError(503, 'The search index is rebuilding.') : envelope([]);
    }),
  );
  const { user } = renderSearch('/search?phone=%2B44%2020');
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The search index is rebuilding.');
  await user.click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('No legal entities match')).toBeInTheDocument();
  expect(calls).toBe(2);
});

test("a 400's field errors land on their fields", async () => {
  server.use(
    apiHandler('GET /api/v2/entities/legal-entities', () =>
      apiError(400, 'Invalid parameter registrationNumber: Too long for this registry.', [
        { field: 'registrationNumber', message: 'Too long for this registry.' },
      ]),
    ),
  );
  const { user } = renderSearch();
  await user.type(screen.getByLabelText('Registration number'), 'ABC-1234567');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('Too long for this registry.')).toBeInTheDocument();
  expect(screen.getByLabelText('Registration number')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.getByRole('alert')).toHaveTextContent(
    'Invalid parameter registrationNumber: Too long for this registry.',
  );
  expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
});

function people(count: number): NaturalPerson[] {
  return Array.from({ length: count }, (_, index) =>
    buildNaturalPerson({
      personalInformation: { firstName: 'Ada', lastName: `Smith ${index + 1}`, countryCode: 'FR' },
      kycMetaData: { ...buildNaturalPerson().kycMetaData, kycStatus: 'Approved' },
    }),
  );
}

/** The people search checks its query with the contract and records it; details come by id. */
function servePeopleSearch(persons: NaturalPerson[]) {
  const searches: Record<string, string>[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      const parsed = naturalPersonSearchQuerySchema.safeParse(params);
      if (!parsed.success) return apiError(400, 'The search query is not valid.');
      searches.push(params);
      return envelope(persons.map((person) => person.id));
    }),
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
      const person = persons.find((candidate) => candidate.id === params.id);
      return person ? envelope(person) : apiError(404, 'Unknown id.');
    }),
  );
  return { searches };
}

function panel(name: 'Companies' | 'People') {
  return within(screen.getByRole('tabpanel', { name }));
}

test('the People tab and its fields come from the address, and the search runs', async () => {
  const persons = people(2);
  const { searches } = servePeopleSearch(persons);
  renderSearch('/search?in=people&lastName=smith&phone=%2B33%201');
  expect(await screen.findByText('2 matches, 2 loaded')).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
  expect(panel('People').getByLabelText('Last name')).toHaveValue('smith');
  expect(panel('People').getByLabelText('Phone')).toHaveValue('+33 1');
  expect(searches).toEqual([{ lastName: 'smith', phone: '+33 1' }]);
});

test('a people search sends its query, updates the address and links each person', async () => {
  const persons = people(3);
  const { searches } = servePeopleSearch(persons);
  const { user, router } = renderSearch();
  await user.click(screen.getByRole('tab', { name: 'People' }));
  expect(router.state.location.search).toBe('?in=people');
  await user.type(panel('People').getByLabelText('First name'), ' ada ');
  await user.type(panel('People').getByLabelText('E-mail'), 'ada@acme.example');
  await user.type(panel('People').getByLabelText('External ID'), 'CRM-7');
  await user.click(panel('People').getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('3 matches, 3 loaded')).toBeInTheDocument();
  expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
    in: 'people',
    firstName: 'ada',
    email: 'ada@acme.example',
    externalID: 'CRM-7',
  });
  expect(searches).toEqual([{ firstName: 'ada', email: 'ada@acme.example', externalID: 'CRM-7' }]);
  const table = panel('People').getByRole('table', { name: 'Search results' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
  ).toEqual(['Name', 'Country', 'KYC status']);
  for (const person of persons) {
    const link = within(table).getByRole('link', {
      name: `Ada ${person.personalInformation.lastName}`,
    });
    expect(link).toHaveAttribute('href', `/entities/people/${person.id}`);
    const row = link.closest('tr');
    if (!row) throw new Error('the link is not in a row');
    expect(row).toHaveTextContent('France');
    expect(row).toHaveTextContent('Approved');
  }
});

test('no person matching shows the empty state in the results region', async () => {
  servePeopleSearch([]);
  renderSearch('/search?in=people&email=nobody%40acme.example');
  const region = await screen.findByRole('region', { name: 'People results' });
  expect(await within(region).findByText('No people match')).toBeInTheDocument();
});

test('an address with a malformed people field shows the error and sends nothing', async () => {
  const { searches } = servePeopleSearch([]);
  renderSearch('/search?in=people&phone=abc');
  expect(await screen.findByText('A phone number needs at least one digit.')).toBeInTheDocument();
  expect(panel('People').getByLabelText('Phone')).toHaveAttribute('aria-invalid', 'true');
  expect(searches).toHaveLength(0);
});

test("a people search's 400 field errors land on their fields", async () => {
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons', () =>
      apiError(400, 'Invalid parameter lastName: Search text cannot contain control characters.', [
        { field: 'lastName', message: 'Search text cannot contain control characters.' },
      ]),
    ),
  );
  const { user } = renderSearch('/search?in=people');
  await user.type(panel('People').getByLabelText('Last name'), 'smith');
  await user.click(panel('People').getByRole('button', { name: 'Search' }));
  expect(
    await panel('People').findByText('Search text cannot contain control characters.'),
  ).toBeInTheDocument();
  expect(panel('People').getByLabelText('Last name')).toHaveAttribute('aria-invalid', 'true');
  expect(panel('People').getByLabelText('First name')).not.toHaveAttribute('aria-invalid', 'true');
  expect(panel('People').queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
});

test('switching tabs keeps what each tab searched and what was typed', async () => {
  serveSearch(companies(2));
  servePeopleSearch(people(1));
  const { user, router } = renderSearch('/search?companyName=northwind');
  expect(await screen.findByText('2 matches, 2 loaded')).toBeInTheDocument();
  await user.type(panel('Companies').getByLabelText('DUNS'), '123');

  await user.click(screen.getByRole('tab', { name: 'People' }));
  expect(router.state.location.search).toBe('?in=people');
  expect(panel('People').getByLabelText('Last name')).toHaveValue('');
  await user.type(panel('People').getByLabelText('Last name'), 'smith');
  await user.click(panel('People').getByRole('button', { name: 'Search' }));
  expect(await screen.findByText('1 match, 1 loaded')).toBeInTheDocument();

  await user.click(screen.getByRole('tab', { name: 'Companies' }));
  expect(router.state.location.search).toBe('?companyName=northwind');
  expect(panel('Companies').getByLabelText('Company name')).toHaveValue('northwind');
  expect(panel('Companies').getByLabelText('DUNS')).toHaveValue('123');
  expect(await panel('Companies').findByText('2 matches, 2 loaded')).toBeInTheDocument();

  await user.click(screen.getByRole('tab', { name: 'People' }));
  expect(router.state.location.search).toBe('?in=people&lastName=smith');
  expect(panel('People').getByLabelText('Last name')).toHaveValue('smith');
  expect(await panel('People').findByText('1 match, 1 loaded')).toBeInTheDocument();
});

test('the tabs are reachable with the keyboard', async () => {
  servePeopleSearch([]);
  const { user, router } = renderSearch();
  screen.getByRole('tab', { name: 'Companies' }).focus();
  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('tab', { name: 'People' })).toHaveFocus();
  await waitFor(() => expect(router.state.location.search).toBe('?in=people'));
  expect(screen.getByRole('tabpanel', { name: 'People' })).toBeVisible();
});
