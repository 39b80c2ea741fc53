import { screen, within } from '@testing-library/react';
import { useParams } from 'react-router';
import { apiHandler, vendorHandlers } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import {
  vendorPersonInList,
  vendorSuccess,
  VENDOR_IDS,
} from '../../../../contract/testing/vendor-samples.ts';
import { EntityDetailPage } from './entity-detail-page.tsx';
import { EntityListPage } from './entity-list-page.tsx';

// Whole pages with many role queries run slowly on a shared CI machine.
vi.setConfig({ testTimeout: 20_000 });

/** The real service's samples as the console meets them through a gateway (issue 11). */
beforeEach(() => {
  server.use(...vendorHandlers);
});

function EntityPage() {
  const { id = '' } = useParams();
  return (
    <EntityDetailPage
      key={id}
      id={id}
      renderDocuments={() => <p>Documents slot</p>}
      renderClientUpdates={() => null}
    />
  );
}

function renderEntity(id: string) {
  return renderRoute(<EntityPage />, {
    path: `/entities/${encodeURIComponent(id)}`,
    routePath: '/entities/:id',
  });
}

// The sections render just after the header's first paint (AfterFirstPaint).
const section = async (name: string) => within(await screen.findByRole('region', { name }));

test('the list (type=all) shows the real service’s person and legal entities', async () => {
  renderRoute(<EntityListPage />, { path: '/entities', routePath: '/entities' });
  const person = await screen.findByRole('link', { name: 'John Doe' });
  const table = screen.getByRole('table', { name: 'Entities' });
  expect(person).toHaveAttribute('href', `/entities/people/${VENDOR_IDS.person}`);
  const personRow = person.closest('tr') as HTMLElement;
  expect(within(personRow).getByText('New')).toBeInTheDocument();
  expect(within(personRow).getByText('United Kingdom')).toBeInTheDocument();
  const testInc = within(table).getByRole('link', { name: 'Test Inc.' });
  expect(testInc).toHaveAttribute('href', `/entities/${VENDOR_IDS.testInc}`);
  expect(within(testInc.closest('tr') as HTMLElement).getByText('Canada')).toBeInTheDocument();
  expect(within(table).getByRole('link', { name: 'New Company' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('a natural person by id: ID from kycMetaData, unknown status, USA, identity checks, companies', async () => {
  renderEntity(VENDOR_IDS.person);
  expect(
    await screen.findByRole('heading', { level: 1, name: 'John James Doe' }),
  ).toBeInTheDocument();
  expect(screen.getByText(VENDOR_IDS.person)).toBeInTheDocument();
  // A status outside the seven is shown as it came.
  expect((await section('KYC')).getByText('Approved')).toBeInTheDocument();
  expect(
    (await section('Personal information')).getByText('United States (US)'),
  ).toBeInTheDocument();

  const checks = await section('Identity checks');
  const identity = checks.getByRole('article', { name: 'Identity verification' });
  expect(within(identity).getByText('Accepted')).toBeInTheDocument();
  expect(within(identity).getByText('Identity verified: Yes')).toBeInTheDocument();
  expect(within(identity).getByText('17 Nov 2022')).toBeInTheDocument();
  const document = checks.getByRole('article', { name: 'Document authentication: ID Card' });
  expect(within(document).getByText('D12345678')).toBeInTheDocument();
  expect(within(document).getByText('United States')).toBeInTheDocument();
  expect(within(document).getByText('11 Mar 2023')).toBeInTheDocument();
  expect(within(document).getByText('100')).toBeInTheDocument();
  expect(within(document).getAllByText('Yes')).toHaveLength(2);
  expect(within(document).getByText('No issues')).toBeInTheDocument();

  const companies = await section('Linked legal entities');
  const advisor = await companies.findByRole('link', { name: 'New Company' });
  expect(advisor).toHaveAttribute('href', `/entities/${VENDOR_IDS.newCompany}`);
  expect(advisor.closest('li')).toHaveTextContent('Advisor');
  const ceo = await companies.findByRole('link', { name: 'Test Inc.' });
  expect(ceo.closest('li')).toHaveTextContent('CEO');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('list-style KYC metadata on a person: numeric risk level, fractional timestamps, assignee', async () => {
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons/:id', () =>
      vendorSuccess({
        ...vendorPersonInList,
        kycMetaData: { ...vendorPersonInList.kycMetaData, assignedUser: 'Jane Reviewer' },
      }),
    ),
  );
  renderEntity(VENDOR_IDS.person);
  expect(await screen.findByRole('heading', { level: 1, name: 'John Doe' })).toBeInTheDocument();
  expect(screen.getByText('Risk level 0')).toBeInTheDocument();
  const kyc = await section('KYC');
  expect(kyc.getByText('New')).toBeInTheDocument();
  expect(kyc.getByText('0')).toBeInTheDocument();
  expect(kyc.getByText('2 Feb 2022, 13:29 UTC')).toBeInTheDocument();
  expect(kyc.getByText('2 Feb 2022, 13:39 UTC')).toBeInTheDocument();
  expect(kyc.getByText('Jane Reviewer')).toBeInTheDocument();
  expect((await section('Personal information')).getAllByText('—').length).toBeGreaterThan(0);
  // No identity checks in a list record: the section is not shown at all.
  expect(screen.queryByRole('region', { name: 'Identity checks' })).not.toBeInTheDocument();
});

test('a legal entity of the real service: no KYC metadata, odd DUNS and LEI, its people from their side', async () => {
  const { user } = renderEntity(VENDOR_IDS.person);
  await screen.findByRole('heading', { level: 1, name: 'John James Doe' });
  const companyLink = await (
    await section('Linked legal entities')
  ).findByRole('link', {
    name: 'Test Inc.',
  });
  await user.click(companyLink);

  expect(await screen.findByRole('heading', { level: 1, name: 'Test Inc.' })).toBeInTheDocument();
  const corporate = await section('Corporate information');
  expect(corporate.getByText('3423489234')).toBeInTheDocument();
  expect(corporate.getByText('665557778')).toBeInTheDocument();
  expect(corporate.getByText('Canada (CA)')).toBeInTheDocument();
  expect((await section('KYC')).getAllByText('No status').length).toBeGreaterThan(0);
  const verification = (await section('Verifications')).getByRole('article');
  expect(within(verification).getByText('Manual Entry')).toBeInTheDocument();

  // The real service lists a company's people on the people's records: the person just seen.
  const people = await section('Linked people');
  expect(people.getByText(/lists a company's people on their own records/)).toBeInTheDocument();
  const person = await people.findByRole('link', { name: 'John James Doe' });
  expect(person).toHaveAttribute('href', `/entities/people/${VENDOR_IDS.person}`);
  expect(person.closest('li')).toHaveTextContent('CEO');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('a legal entity opened first says where its people are listed', async () => {
  renderEntity(VENDOR_IDS.newCompany);
  expect(await screen.findByRole('heading', { level: 1, name: 'New Company' })).toBeInTheDocument();
  const people = await section('Linked people');
  expect(people.getByText('No linked people')).toBeInTheDocument();
  expect(people.getByText(/open a person to see their companies/)).toBeInTheDocument();
  expect((await section('Corporate information')).getAllByText('000000')).toHaveLength(2);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('an unknown ID answered with the real service’s failure envelope is "not found"', async () => {
  renderEntity('no-such-id');
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Entity not found' }),
  ).toBeInTheDocument();
});
