import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { Buffer } from 'node:buffer';
import { HttpResponse } from 'msw';
import { useParams } from 'react-router';
import { MAX_DOCUMENT_BYTES } from '../../../../contract/entities.ts';
import { legalEntityCreateSchema } from '../../../../contract/legal-entity-create.ts';
import { buildLegalEntity } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { DRAFT_STORAGE_KEY, type OnboardingDraft } from '../onboarding-draft.ts';
import { emptyOnboardingValues } from '../onboarding-form.ts';
import { OnboardingPage } from './onboarding-page.tsx';

// The form is large and role queries walk all of it; on a shared 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

function EntityPageProbe() {
  const { id } = useParams();
  return <h1>Entity {id}</h1>;
}

function renderOnboarding() {
  return renderRoute(<OnboardingPage />, {
    path: '/legal-entities/new',
    routePath: '/legal-entities/new',
    extraRoutes: [{ path: '/entities/:id', element: <EntityPageProbe /> }],
  });
}

interface CapturedRequest {
  body: unknown;
  idempotencyKey: string | null;
}

/** Answers 201 with an entity named after the request, recording every request. */
function acceptCreates(id = '7d1f5c2e-8a51-4c1b-9d0e-1234567890ab') {
  const requests: CapturedRequest[] = [];
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities',
      async ({ request }) => {
        const body = (await request.json()) as { corporateInformation: { companyName: string } };
        requests.push({ body, idempotencyKey: request.headers.get('Idempotency-Key') });
        return envelope(
          buildLegalEntity({
            id,
            corporateInformation: { companyName: body.corporateInformation.companyName },
          }),
          201,
        );
      },
      { status: 201 },
    ),
  );
  return requests;
}

function countRequests() {
  const requests: unknown[] = [];
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities', ({ request }) => {
      requests.push(request);
      return apiError(500, 'Should not have been called.');
    }),
  );
  return requests;
}

async function chooseCountry(user: UserEvent, search: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: 'Country' }));
  await user.type(screen.getByRole('combobox', { name: 'Country' }), search);
  await user.click(await screen.findByRole('option', { name: option }));
}

async function fillRequiredFields(user: UserEvent) {
  await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Harbour Logistics Ltd');
  await user.type(screen.getByRole('textbox', { name: 'Registration number' }), 'HL-2211');
  await chooseCountry(user, 'United King', 'United Kingdom (GB)');
}

const createButton = () => screen.getByRole('button', { name: 'Create legal entity' });

test('shows the contract’s errors on the fields and sends nothing while the form is invalid', async () => {
  const requests = countRequests();
  const { user } = renderOnboarding();

  await user.click(createButton());

  expect(await screen.findByText('Enter the company name.')).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveAccessibleDescription(
    'Enter the company name.',
  );
  expect(screen.getByRole('textbox', { name: 'Registration number' })).toHaveAccessibleDescription(
    'Enter the registration number.',
  );
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAccessibleDescription(
    'Use a two-letter ISO 3166-1 country code, such as GB.',
  );

  await user.type(screen.getByRole('textbox', { name: 'DUNS' }), '12345');
  // The valid LEI 5493001KJTIIGC8Y1R12 with its last check digit changed.
  await user.type(screen.getByRole('textbox', { name: 'LEI' }), '5493001KJTIIGC8Y1R13');
  await user.type(screen.getByRole('textbox', { name: 'Company e-mail' }), 'info@@example');
  await user.click(screen.getByRole('checkbox', { name: /Add a primary contact/ }));
  await user.click(createButton());

  await waitFor(() =>
    expect(screen.getByRole('textbox', { name: 'DUNS' })).toHaveAccessibleDescription(
      expect.stringContaining('A DUNS number has exactly 9 digits.'),
    ),
  );
  expect(screen.getByRole('textbox', { name: 'LEI' })).toHaveAccessibleDescription(
    expect.stringContaining('Not a valid LEI'),
  );
  expect(screen.getByRole('textbox', { name: 'Company e-mail' })).toHaveAccessibleDescription(
    'Enter a valid e-mail address.',
  );
  expect(screen.getByRole('textbox', { name: 'First name' })).toHaveAccessibleDescription(
    'Enter the first name.',
  );
  expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveAccessibleDescription(
    'Enter a valid e-mail address.',
  );
  expect(requests).toHaveLength(0);
});

test('rejects a country that is not an ISO code, such as a restored “UK”', async () => {
  const values = emptyOnboardingValues();
  values.corporateInformation.companyName = 'Old Draft Ltd';
  values.corporateInformation.registrationNumber = 'OD-1';
  values.corporateInformation.country = 'UK';
  const draft: OnboardingDraft = {
    values,
    idempotencyKey: 'key-1',
    savedAt: '2026-03-01T10:00:00.000Z',
  };
  sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
  const requests = countRequests();
  const { user } = renderOnboarding();

  await user.click(createButton());

  await waitFor(() =>
    expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAccessibleDescription(
      'Use a two-letter ISO 3166-1 country code, such as GB.',
    ),
  );
  expect(requests).toHaveLength(0);
});

test('puts the server’s field errors on their fields and the rest in an alert', async () => {
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities', () =>
      apiError(400, 'Invalid field corporateInformation.registrationNumber: Already retired.', [
        { field: 'corporateInformation.registrationNumber', message: 'Already retired.' },
        { field: 'corporateInformation.country', message: 'Not served in this region.' },
        { field: 'tenant', message: 'Unknown tenant.' },
      ]),
    ),
  );
  const { user } = renderOnboarding();
  await fillRequiredFields(user);

  await user.click(createButton());

  const alert = await screen.findByRole('alert', { name: 'The legal entity was not created' });
  expect(alert).toHaveTextContent(
    'Invalid field corporateInformation.registrationNumber: Already retired.',
  );
  expect(alert).toHaveTextContent('tenant: Unknown tenant.');
  expect(screen.getByRole('textbox', { name: 'Registration number' })).toHaveAccessibleDescription(
    'Already retired.',
  );
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveAccessibleDescription(
    'Not served in this region.',
  );
  expect(screen.getByRole('textbox', { name: 'Registration number' })).toHaveFocus();
});

const EXISTING_ID = '0c0d6a3e-1111-4222-8333-444455556666';

function answerDuplicate(data: unknown[]) {
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities', () =>
      HttpResponse.json(
        {
          code: 409,
          status: 'error',
          message: `A legal entity with registration number HL-2211 in GB already exists: ${EXISTING_ID}.`,
          data,
          errors: [
            {
              field: 'corporateInformation.registrationNumber',
              message: 'A legal entity with this registration number in GB already exists.',
            },
          ],
        },
        { status: 409 },
      ),
    ),
  );
}

test('shows a duplicate registration on its field, linked to the existing entity by name', async () => {
  answerDuplicate([{ entityId: EXISTING_ID, companyName: 'Harbour Logistics (Old) Ltd' }]);
  const { user, router } = renderOnboarding();
  await fillRequiredFields(user);

  await user.click(createButton());

  const field = screen.getByRole('textbox', { name: 'Registration number' });
  await waitFor(() =>
    expect(field).toHaveAccessibleDescription(
      'A legal entity with this registration number in GB already exists. Open Harbour Logistics (Old) Ltd.',
    ),
  );
  expect(field).toHaveFocus();
  expect(
    screen.queryByRole('alert', { name: 'The legal entity was not created' }),
  ).not.toBeInTheDocument();
  expect(screen.queryByText(EXISTING_ID, { exact: false })).not.toBeInTheDocument();

  await user.click(screen.getByRole('link', { name: 'Harbour Logistics (Old) Ltd' }));
  expect(router.state.location.pathname).toBe(`/entities/${EXISTING_ID}`);
});

test('links a duplicate without a name as “the existing legal entity”', async () => {
  answerDuplicate([{ entityId: EXISTING_ID }]);
  const { user } = renderOnboarding();
  await fillRequiredFields(user);

  await user.click(createButton());

  expect(await screen.findByRole('link', { name: 'the existing legal entity' })).toHaveAttribute(
    'href',
    `/entities/${EXISTING_ID}`,
  );
});

test('Discard draft asks first, and Keep editing keeps the form and the draft', async () => {
  const { user } = renderOnboarding();
  await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Keep Me Ltd');
  await waitFor(() => expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).not.toBeNull());

  await user.click(screen.getByRole('button', { name: 'Discard draft' }));
  const confirm = await screen.findByRole('dialog', { name: 'Discard this draft?' });
  await user.click(within(confirm).getByRole('button', { name: 'Keep editing' }));

  await waitFor(() =>
    expect(screen.queryByRole('dialog', { name: 'Discard this draft?' })).not.toBeInTheDocument(),
  );
  expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveValue('Keep Me Ltd');
  expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toContain('Keep Me Ltd');
});

test('restores the draft after the page is unmounted, and Discard draft empties it', async () => {
  const first = renderOnboarding();
  await first.user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Draft Holdings');
  await chooseCountry(first.user, 'Germ', 'Germany (DE)');
  await first.user.type(screen.getByRole('textbox', { name: 'DUNS' }), '123456789');
  first.unmount();

  const second = renderOnboarding();

  expect(await screen.findByRole('alert', { name: 'Draft restored' })).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveValue('Draft Holdings');
  expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Germany (DE)');
  expect(screen.getByRole('textbox', { name: 'DUNS' })).toHaveValue('123456789');

  await second.user.click(screen.getByRole('button', { name: 'Discard draft' }));
  const confirm = await screen.findByRole('dialog', { name: 'Discard this draft?' });
  await second.user.click(within(confirm).getByRole('button', { name: 'Discard' }));

  expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveValue('');
  expect(screen.queryByRole('alert', { name: 'Draft restored' })).not.toBeInTheDocument();
  expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
});

test('sends the draft’s Idempotency-Key once for a double click, then opens the new entity', async () => {
  const id = '7d1f5c2e-8a51-4c1b-9d0e-1234567890ab';
  const requests = acceptCreates(id);
  const { user, router } = renderOnboarding();
  await fillRequiredFields(user);
  await waitFor(() => expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).not.toBeNull());
  const draftKey = (
    JSON.parse(sessionStorage.getItem(DRAFT_STORAGE_KEY) ?? '{}') as OnboardingDraft
  ).idempotencyKey;

  await user.dblClick(createButton());

  expect(await screen.findByRole('heading', { name: `Entity ${id}` })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe(`/entities/${id}`);
  expect(requests).toHaveLength(1);
  expect(requests[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(requests[0]?.idempotencyKey).toBe(draftKey);
  expect(legalEntityCreateSchema.parse(requests[0]?.body)).toEqual({
    riskLevel: 'Medium',
    corporateInformation: {
      companyName: 'Harbour Logistics Ltd',
      registrationNumber: 'HL-2211',
      country: 'GB',
    },
  });
  expect(await screen.findByText('Harbour Logistics Ltd is onboarded.')).toBeInTheDocument();
  expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
});

test('refuses a file over 10 MB before reading it', async () => {
  const { user } = renderOnboarding();
  const big = new File([new Uint8Array(MAX_DOCUMENT_BYTES + 1024 * 1024)], 'annual-report.pdf', {
    type: 'application/pdf',
  });

  await user.upload(screen.getByLabelText('Supporting document files'), big);

  expect(
    await screen.findByRole('alert', { name: 'Some files were not attached' }),
  ).toHaveTextContent('annual-report.pdf is 11.0 MB; each document can be at most 10.0 MB.');
  expect(screen.queryByRole('group', { name: 'annual-report.pdf' })).not.toBeInTheDocument();
});

test.each(['setup.exe', 'certificate.pdf'])(
  'refuses executable bytes named %s with the server’s message, and sends nothing',
  async (fileName) => {
    const requests = acceptCreates();
    const { user } = renderOnboarding();
    await fillRequiredFields(user);
    const executable = new TextEncoder().encode(
      'MZ\u0090\u0000 This program cannot be run in DOS mode',
    );

    await user.upload(
      screen.getByLabelText('Supporting document files'),
      new File([executable], fileName, { type: 'application/pdf' }),
    );

    expect(
      await screen.findByRole('alert', { name: 'Some files were not attached' }),
    ).toHaveTextContent(
      `${fileName}: This file is a Windows executable, not a document: upload a PDF, JPEG, PNG, TIFF, WebP or HEIC file.`,
    );
    expect(screen.queryByRole('group', { name: fileName })).not.toBeInTheDocument();
    await user.click(createButton());
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(legalEntityCreateSchema.parse(requests[0]?.body).supportingDocuments ?? []).toEqual([]);
  },
);

test('encodes a small file to base64 and sends it with its type and description', async () => {
  const requests = acceptCreates();
  const { user } = renderOnboarding();
  await fillRequiredFields(user);
  const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0x10, 0x80, 0x7f]);
  const file = new File([bytes], 'lease.pdf', { type: 'application/pdf' });

  await user.upload(screen.getByLabelText('Supporting document files'), file);
  const row = await screen.findByRole('group', { name: 'lease.pdf' });
  await user.click(createButton());

  expect(
    await within(row).findByText('Choose the document type.', { ignore: '[role=option]' }),
  ).toBeInTheDocument();
  expect(requests).toHaveLength(0);

  await user.click(within(row).getByRole('combobox', { name: 'Document type' }));
  await user.click(await screen.findByRole('option', { name: 'Proof of Address' }));
  await user.type(within(row).getByRole('textbox', { name: 'Description' }), 'Office lease');
  await user.click(createButton());

  await waitFor(() => expect(requests).toHaveLength(1));
  const sent = legalEntityCreateSchema.parse(requests[0]?.body);
  expect(sent.supportingDocuments).toEqual([
    {
      fileName: 'lease.pdf',
      type: 'Proof of Address',
      description: 'Office lease',
      mimeType: 'application/pdf',
      file: Buffer.from(bytes).toString('base64'),
    },
  ]);
});

test('keeps attached files’ details but not their bytes in the draft, and asks for them again', async () => {
  const requests = acceptCreates();
  const first = renderOnboarding();
  await fillRequiredFields(first.user);
  const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xe2]);
  const base64 = Buffer.from(bytes).toString('base64');
  await first.user.upload(
    screen.getByLabelText('Supporting document files'),
    new File([bytes], 'passport-scan.pdf', { type: 'application/pdf' }),
  );
  const row = await screen.findByRole('group', { name: 'passport-scan.pdf' });
  await first.user.click(within(row).getByRole('combobox', { name: 'Document type' }));
  await first.user.click(await screen.findByRole('option', { name: 'Proof of Identity' }));
  await first.user.type(within(row).getByRole('textbox', { name: 'Description' }), 'Director');
  await waitFor(() =>
    expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toContain('"description":"Director"'),
  );
  const stored = sessionStorage.getItem(DRAFT_STORAGE_KEY) ?? '';
  expect(stored).toContain('passport-scan.pdf');
  expect(stored).not.toContain(base64);
  first.unmount();

  const second = renderOnboarding();
  expect(await screen.findByRole('alert', { name: 'Draft restored' })).toHaveTextContent(
    'Attached files are not kept in the draft. Attach them again: passport-scan.pdf.',
  );
  const restored = screen.getByRole('group', { name: 'passport-scan.pdf' });
  expect(within(restored).getByRole('combobox', { name: 'Document type' })).toHaveValue(
    'Proof of Identity',
  );
  expect(within(restored).getByRole('textbox', { name: 'Description' })).toHaveValue('Director');
  expect(restored).toHaveTextContent('attach passport-scan.pdf again');

  await second.user.click(createButton());
  expect(await within(restored).findByRole('alert')).toHaveTextContent(
    'attach passport-scan.pdf again',
  );
  expect(requests).toHaveLength(0);

  await second.user.upload(
    within(restored).getByLabelText('File for passport-scan.pdf'),
    new File([bytes], 'passport-scan.pdf', { type: 'application/pdf' }),
  );
  await waitFor(() =>
    expect(
      within(screen.getByRole('group', { name: 'passport-scan.pdf' })).queryByRole('button', {
        name: 'Attach passport-scan.pdf again',
      }),
    ).not.toBeInTheDocument(),
  );
  await second.user.click(createButton());

  await waitFor(() => expect(requests).toHaveLength(1));
  expect(legalEntityCreateSchema.parse(requests[0]?.body).supportingDocuments).toEqual([
    {
      fileName: 'passport-scan.pdf',
      type: 'Proof of Identity',
      description: 'Director',
      mimeType: 'application/pdf',
      file: base64,
    },
  ]);
});

test('removes file bytes an older console left in a draft as soon as the draft is read', async () => {
  const values = emptyOnboardingValues();
  values.corporateInformation.companyName = 'Old Draft Ltd';
  values.supportingDocuments = [
    {
      key: 'doc-1',
      fileName: 'statement.pdf',
      type: 'Bank Statement',
      description: 'March',
      mimeType: 'application/pdf',
      size: 5,
      file: 'JVBERi0x',
    },
  ];
  sessionStorage.setItem(
    DRAFT_STORAGE_KEY,
    JSON.stringify({ values, idempotencyKey: 'key-2', savedAt: '2026-03-01T10:00:00.000Z' }),
  );

  renderOnboarding();

  expect(await screen.findByRole('alert', { name: 'Draft restored' })).toHaveTextContent(
    'Attach them again: statement.pdf.',
  );
  const stored = sessionStorage.getItem(DRAFT_STORAGE_KEY) ?? '';
  expect(stored).toContain('statement.pdf');
  expect(stored).not.toContain('JVBERi0x');
});

/** A restored draft of a GB company, with `change` applied to its values. */
function restoreDraft(change: (values: ReturnType<typeof emptyOnboardingValues>) => void) {
  const values = emptyOnboardingValues();
  values.corporateInformation.companyName = 'Dated Holdings Ltd';
  values.corporateInformation.registrationNumber = 'DH-1';
  values.corporateInformation.country = 'GB';
  change(values);
  const draft: OnboardingDraft = {
    values,
    idempotencyKey: 'key-d',
    savedAt: '2026-11-26T10:00:00Z',
  };
  sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
}

function verificationValues(verificationDate: string, nextReviewDate: string) {
  return {
    legalEntityVerification: true,
    verificationStatus: 'Accepted',
    verificationDate,
    verificationSource: 'Manual Entry',
    businessStatement: '',
    nextReviewDate,
    verificationIssues: '',
  };
}

describe('date and phone rules, on the fields', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    vi.useRealTimers();
    process.env.TZ = zone;
  });

  /** The browser's clock at `instant`, in time zone `tz`. */
  function browserAt(instant: string, tz: string) {
    process.env.TZ = tz;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
  }

  test('refuses tomorrow (UTC) even where it is already tomorrow locally, and impossible dates and phones', async () => {
    // 23:30 UTC on 26 November: 13:30 on 27 November at UTC+14 (Kiribati).
    browserAt('2026-11-26T23:30:00Z', 'Pacific/Kiritimati');
    restoreDraft((values) => {
      values.corporateInformation.dateofIncorporation = '2026-11-27';
      values.corporateInformation.companyPhone = 'call me maybe';
      values.hasPrimaryContact = true;
      values.primaryContact = {
        firstName: 'Ada',
        lastName: 'Byrne',
        email: 'ada@example.com',
        phone: '637 874 163',
      };
      values.corporateVerifications = [
        verificationValues('2026-11-27', '2027-11-27'),
        verificationValues('2026-01-10', '2026-01-10'),
        verificationValues('2027-02-28', '2027-02-29'),
      ];
    });
    const requests = countRequests();
    const { user } = renderOnboarding();
    await user.click(createButton());

    await waitFor(() =>
      expect(
        screen.getByLabelText('Date of incorporation', { selector: 'input' }),
      ).toHaveAccessibleDescription(
        'The date of incorporation cannot be after today (2026-11-26, UTC).',
      ),
    );
    expect(screen.getByRole('textbox', { name: 'Company phone' })).toHaveAccessibleDescription(
      'Not a valid phone number in GB. A number from another country starts with + and its country code.',
    );
    // A Spanish mobile number is not a British one unless given as +34 637 874 163.
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveAccessibleDescription(
      expect.stringContaining('Not a valid phone number in GB.'),
    );
    const verificationDates = screen.getAllByLabelText(/^Verification date/, { selector: 'input' });
    const nextReviewDates = screen.getAllByLabelText(/^Next review date/, { selector: 'input' });
    expect(verificationDates[0]).toHaveAccessibleDescription(
      'The verification date cannot be after today (2026-11-26, UTC).',
    );
    expect(nextReviewDates[1]).toHaveAccessibleDescription(
      'The next review date must be after the verification date.',
    );
    expect(nextReviewDates[2]).toHaveAccessibleDescription('This date does not exist.');
    expect(requests).toHaveLength(0);
  });

  test('takes today (UTC) where it is still yesterday locally, 29 February of a leap year and valid phones', async () => {
    // 00:30 UTC on 29 February 2028: 12:30 on 28 February at UTC-12.
    browserAt('2028-02-29T00:30:00Z', 'Etc/GMT+12');
    restoreDraft((values) => {
      values.corporateInformation.dateofIncorporation = '2028-02-29';
      values.corporateInformation.companyPhone = '020 7946 0958';
      values.hasPrimaryContact = true;
      values.primaryContact = {
        firstName: 'Ada',
        lastName: 'Byrne',
        email: 'ada@example.com',
        phone: '+34 637 874 163',
      };
      values.corporateVerifications = [verificationValues('2028-02-29', '2029-02-28')];
    });
    const requests = acceptCreates();
    const { user } = renderOnboarding();
    await user.click(createButton());

    await screen.findByRole('heading', { name: /^Entity / });
    expect(legalEntityCreateSchema.parse(requests[0]?.body)).toMatchObject({
      corporateInformation: { dateofIncorporation: '2028-02-29', companyPhone: '020 7946 0958' },
      primaryContact: { phone: '+34 637 874 163' },
      corporateVerifications: [{ verificationDate: '2028-02-29', nextReviewDate: '2029-02-28' }],
    });
  });
});
