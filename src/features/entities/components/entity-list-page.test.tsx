import { act, screen, waitFor, within } from '@testing-library/react';
import { entityListQuerySchema, type Entity } from '../../../../contract/entities.ts';
import {
  buildDocument,
  buildLegalEntity,
  buildNaturalPerson,
  buildVerification,
} from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { EntityListPage } from './entity-list-page.tsx';

// Mantine and user-event are slow on the shared 2-core machines; the assertions themselves are not timed.
vi.setConfig({ testTimeout: 20_000 });

type ListQuery = ReturnType<typeof entityListQuerySchema.parse>;

/**
 * Serves the list like the server would: it checks the query with the contract's schema (400 on a
 * bad one), records every parsed query and answers with `pageFor(query)`.
 */
function serveList(pageFor: (query: ListQuery) => Entity[] | Promise<Entity[]>) {
  const seen: ListQuery[] = [];
  server.use(
    apiHandler('GET /api/v2/entities', async ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      const parsed = entityListQuerySchema.safeParse(params);
      if (!parsed.success) return apiError(400, `Bad list query: ${parsed.error.message}`);
      seen.push(parsed.data);
      return envelope(await pageFor(parsed.data));
    }),
  );
  return seen;
}

/** `total` companies numbered from 1, sliced the way the server pages them. */
function companies(total: number) {
  const all = Array.from({ length: total }, (_, index) =>
    buildLegalEntity({ corporateInformation: { companyName: `Company ${index + 1}` } }),
  );
  return (query: ListQuery) => all.slice(query.start, query.start + query.limit);
}

function isoDaysFromToday(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function renderList(path = '/entities') {
  return renderRoute(<EntityListPage />, { path, routePath: '/entities' });
}

function bodyRows() {
  const [, ...rows] = within(screen.getByRole('table', { name: 'Entities' })).getAllByRole('row');
  return rows;
}

function bodyRow(index: number): HTMLElement {
  const row = bodyRows()[index];
  if (!row) throw new Error(`The table has no row ${index + 1}.`);
  return row;
}

test('shows skeleton rows while the first page loads', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  serveList(async () => {
    await gate;
    return [buildLegalEntity({ corporateInformation: { companyName: 'Late Arrival Ltd' } })];
  });
  renderList();
  expect(await screen.findByText('Loading entities…')).toBeInTheDocument();
  expect(screen.getByRole('table', { name: 'Entities' })).toHaveAttribute('aria-busy', 'true');
  expect(bodyRows()).toHaveLength(10);
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
  release();
  expect(await screen.findByRole('link', { name: 'Late Arrival Ltd' })).toBeInTheDocument();
  expect(screen.queryByText('Loading entities…')).not.toBeInTheDocument();
});

test('shows an empty state when there are no entities', async () => {
  serveList(() => []);
  renderList('/entities?type=natural-persons');
  expect(await screen.findByText('No natural persons yet')).toBeInTheDocument();
  expect(screen.queryByRole('table')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
});

test("shows the envelope's message and Retry loads again", async () => {
  let calls = 0;
  server.use(
    apiHandler('GET /api/v2/entities', () => {
      calls += 1;
      return calls === 1
        ? apiError(503, 'The database is not answering.')
        : envelope([buildLegalEntity({ corporateInformation: { companyName: 'Back Again plc' } })]);
    }),
  );
  const { user } = renderList();
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The database is not answering.');
  await user.click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('link', { name: 'Back Again plc' })).toBeInTheDocument();
  expect(calls).toBe(2);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('shows one row per entity with what a reviewer scans', async () => {
  const company = buildLegalEntity({
    corporateInformation: {
      companyName: 'Fjord Shipping AS',
      country: 'NO',
      registrationNumber: '912 345 678',
    },
    kycMetaData: { kycStatus: 'Escalated', nextKYCReview: '2099-03-01' },
  });
  const person = buildNaturalPerson({
    personalInformation: {
      firstName: 'Ana',
      middleName: 'Luísa',
      lastName: 'Costa',
      countryCode: 'PT',
    },
    kycMetaData: { kycStatus: 'Pending', nextKYCReview: null },
  });
  serveList(() => [company, person]);
  renderList();
  const companyLink = await screen.findByRole('link', { name: 'Fjord Shipping AS' });
  expect(companyLink).toHaveAttribute('href', `/entities/${company.id}`);
  expect(screen.getByRole('link', { name: 'Ana Luísa Costa' })).toHaveAttribute(
    'href',
    `/entities/people/${person.id}`,
  );
  const companyCells = within(bodyRow(0))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
  expect(companyCells).toEqual([
    'Fjord Shipping AS',
    'Legal entity',
    'Norway',
    '912 345 678',
    'Escalated',
    '1 Mar 2099',
  ]);
  const personCells = within(bodyRow(1))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
  expect(personCells).toEqual([
    'Ana Luísa Costa',
    'Natural person',
    'Portugal',
    '—',
    'Pending',
    '—',
  ]);
  expect(screen.getByText('Showing 1–2')).toBeInTheDocument();
  expect(screen.queryByRole('columnheader', { name: 'Documents' })).not.toBeInTheDocument();
});

test('flags overdue and soon-due reviews in words', async () => {
  serveList(() => [
    buildLegalEntity({
      corporateInformation: { companyName: 'Overdue Ltd' },
      kycMetaData: { kycStatus: 'Review', nextKYCReview: isoDaysFromToday(-3) },
    }),
    buildLegalEntity({
      corporateInformation: { companyName: 'Soon Ltd' },
      kycMetaData: { kycStatus: 'Accepted', nextKYCReview: isoDaysFromToday(12) },
    }),
    buildLegalEntity({
      corporateInformation: { companyName: 'Later Ltd' },
      kycMetaData: { kycStatus: 'Accepted', nextKYCReview: isoDaysFromToday(200) },
    }),
  ]);
  renderList();
  await screen.findByRole('link', { name: 'Overdue Ltd' });
  expect(within(bodyRow(0)).getByText('Overdue by 3 days')).toBeInTheDocument();
  expect(within(bodyRow(1)).getByText('Due in 12 days')).toBeInTheDocument();
  expect(within(bodyRow(2)).queryByText(/Overdue|Due in/)).not.toBeInTheDocument();
});

test('tabs, page size, order and switches update the address and the request', async () => {
  const seen = serveList(() => [
    buildLegalEntity({
      corporateInformation: { companyName: 'Acme Ltd' },
      supportingDocuments: [],
      corporateVerifications: [],
    }),
  ]);
  const { user, router } = renderList('/entities?start=30');
  await screen.findByRole('link', { name: 'Acme Ltd' });
  expect(seen.at(-1)).toMatchObject({ type: 'all', limit: 10, start: 30, descending: false });

  await user.click(screen.getByRole('tab', { name: 'Legal entities' }));
  expect(router.state.location.search).toBe('?type=legal-entities');
  await waitFor(() => expect(seen.at(-1)).toMatchObject({ type: 'legal-entities', start: 0 }));
  expect(screen.getByRole('tab', { name: 'Legal entities' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '25');
  expect(router.state.location.search).toBe('?type=legal-entities&limit=25');
  await waitFor(() => expect(seen.at(-1)).toMatchObject({ limit: 25 }));

  await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Newest first');
  expect(new URLSearchParams(router.state.location.search).get('descending')).toBe('true');
  await waitFor(() => expect(seen.at(-1)).toMatchObject({ descending: true }));

  await user.click(screen.getByRole('switch', { name: 'Include verifications' }));
  await waitFor(() => expect(seen.at(-1)).toMatchObject({ corporateVerification: true }));
  await user.click(screen.getByRole('switch', { name: 'Include documents' }));
  await waitFor(() => expect(seen.at(-1)).toMatchObject({ supportingDocuments: true }));
  expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
    type: 'legal-entities',
    limit: '25',
    descending: 'true',
    corporateVerification: 'true',
    supportingDocuments: 'true',
  });
  expect(await screen.findByRole('columnheader', { name: 'Documents' })).toBeInTheDocument();

  await act(() => router.navigate(-1));
  expect(screen.getByRole('switch', { name: 'Include documents' })).not.toBeChecked();
  expect(screen.getByRole('switch', { name: 'Include verifications' })).toBeChecked();
});

test('opening an address with invalid values falls back to the defaults', async () => {
  const seen = serveList(companies(3));
  renderList('/entities?type=robots&limit=7&start=-4&descending=maybe');
  await screen.findByRole('link', { name: 'Company 1' });
  expect(seen[0]).toEqual({
    type: 'all',
    limit: 10,
    start: 0,
    descending: false,
    corporateVerification: false,
    supportingDocuments: false,
  });
  expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('10');
});

test('Next and Previous move start by one page, and the next page is prefetched', async () => {
  const seen = serveList(companies(25));
  const { user, router } = renderList();
  await screen.findByRole('link', { name: 'Company 1' });
  expect(screen.getByText('Showing 1–10')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  // The full first page makes the console fetch the second before anyone asks.
  await waitFor(() => expect(seen.map((query) => query.start)).toEqual([0, 10]));

  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(router.state.location.search).toBe('?start=10');
  expect(await screen.findByRole('link', { name: 'Company 11' })).toBeInTheDocument();
  expect(screen.getByText('Showing 11–20')).toBeInTheDocument();
  await waitFor(() => expect(seen.map((query) => query.start)).toEqual([0, 10, 20]));

  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByRole('link', { name: 'Company 21' })).toBeInTheDocument();
  expect(screen.getByText('Showing 21–25')).toBeInTheDocument();
  // A short page is the last one: Next is off and nothing beyond it is fetched.
  expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  expect(seen.map((query) => query.start)).toEqual([0, 10, 20]);

  await user.click(screen.getByRole('button', { name: 'Previous' }));
  expect(router.state.location.search).toBe('?start=10');
  expect(await screen.findByRole('link', { name: 'Company 11' })).toBeInTheDocument();
});

test('keeps the current page on screen while the next one loads', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const page = companies(30);
  serveList(async (query) => {
    if (query.start === 20) await gate;
    return page(query);
  });
  const { user } = renderList('/entities?start=10');
  await screen.findByRole('link', { name: 'Company 11' });
  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(await screen.findByText('Loading…')).toBeInTheDocument();
  expect(screen.getByRole('table', { name: 'Entities' })).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('link', { name: 'Company 11' })).toBeInTheDocument();
  release();
  expect(await screen.findByRole('link', { name: 'Company 21' })).toBeInTheDocument();
  expect(screen.getByRole('table', { name: 'Entities' })).toHaveAttribute('aria-busy', 'false');
});

test('on a full last page (a total that is a multiple of the page size) Next is off', async () => {
  const seen = serveList(companies(20));
  renderList('/entities?start=10');
  await screen.findByRole('link', { name: 'Company 11' });
  expect(screen.getByText('Showing 11–20')).toBeInTheDocument();
  // The prefetched page past the end came back empty: there is nothing to go Next to.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled());
  expect(seen.map((query) => query.start)).toEqual([10, 20]);
  expect(screen.queryByText('No more entities')).not.toBeInTheDocument();
});

test('with documents on, people show the count of their documents too', async () => {
  const company = buildLegalEntity({
    corporateInformation: { companyName: 'Fjord Shipping AS' },
    supportingDocuments: [buildDocument()],
  });
  const person = buildNaturalPerson({
    personalInformation: { firstName: 'Ana', lastName: 'Costa' },
  });
  const documentLists: string[] = [];
  serveList(() => [company, person]);
  server.use(
    apiHandler('GET /api/v2/entities/:id/documents', ({ params }) => {
      documentLists.push(String(params.id));
      return envelope(params.id === person.id ? [buildDocument(), buildDocument()] : []);
    }),
  );
  renderList('/entities?supportingDocuments=true');
  await screen.findByRole('link', { name: 'Ana Costa' });
  const documentsColumn = screen
    .getAllByRole('columnheader')
    .findIndex((header) => header.textContent === 'Documents');
  const documentsOf = (row: number) =>
    within(bodyRow(row)).getAllByRole('cell')[documentsColumn]?.textContent;
  expect(documentsOf(0)).toBe('1');
  await waitFor(() => expect(documentsOf(1)).toBe('2'));
  // The list's own count stands for the company; only the person's documents are asked for.
  expect(documentLists).toEqual([person.id]);
});

test('the status column means the entity’s KYC status whether or not verifications are included', async () => {
  const ivory = buildLegalEntity({
    corporateInformation: { companyName: 'Ivory Industries' },
    kycMetaData: { kycStatus: 'Expired', nextKYCReview: '2026-01-10' },
  });
  const withVerifications = {
    ...ivory,
    corporateVerifications: [
      buildVerification({ verificationDate: '2025-12-01', verificationStatus: 'Accepted' }),
    ],
  };
  serveList((query) => [query.corporateVerification ? withVerifications : ivory]);
  const { user } = renderList();
  await screen.findByRole('link', { name: 'Ivory Industries' });
  expect(screen.getByRole('columnheader', { name: 'KYC status' })).toBeInTheDocument();
  expect(within(bodyRow(0)).getByText('Expired')).toBeInTheDocument();

  await user.click(screen.getByRole('switch', { name: 'Include verifications' }));
  await waitFor(() =>
    expect(screen.getByRole('switch', { name: 'Include verifications' })).toBeChecked(),
  );
  await waitFor(() =>
    expect(screen.getByRole('table', { name: 'Entities' })).toHaveAttribute('aria-busy', 'false'),
  );
  expect(within(bodyRow(0)).getByText('Expired')).toBeInTheDocument();
  expect(within(bodyRow(0)).queryByText('Accepted')).not.toBeInTheDocument();
});

test('the tab is titled after the page', async () => {
  serveList(() => []);
  renderList();
  await waitFor(() => expect(document.title).toBe('Entities — KYC Desk'));
});
