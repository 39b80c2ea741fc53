import { screen, waitFor, within } from '@testing-library/react';
import {
  clientUpdateRequestSchema,
  type ClientUpdateConfig,
  type ClientUpdateRecord,
} from '../../../../contract/client-updates.ts';
import { buildLegalEntity, buildNaturalPerson } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ClientUpdatePanel } from './client-update-panel.tsx';

// Mantine's Select and Modal under jsdom on a shared 2-core machine can take seconds per step.
vi.setConfig({ testTimeout: 60_000 });

const director = buildNaturalPerson({
  personalInformation: { firstName: 'Oskar', lastName: 'Lind', email: 'oskar@northwind.example' },
});
const contact = buildNaturalPerson({
  personalInformation: { firstName: 'Amelia', lastName: 'Hart', email: 'amelia@northwind.example' },
});
const entity = buildLegalEntity({
  linkedEntities: [
    { relationship: 'Director', entityID: director.id },
    { relationship: 'Primary Contact', entityID: contact.id },
  ],
});

const informationConfig: ClientUpdateConfig = {
  configId: 1,
  name: 'Request updated information',
  description: 'Asks the client to confirm or correct their details.',
  defaultSubject: 'Please review your company details',
  defaultMessage: 'Please check the information we hold about your company.',
  defaultDomain: 'portal.kyc.example',
};
const documentsConfig: ClientUpdateConfig = {
  configId: 2,
  name: 'Request supporting documents',
  description: 'Asks the client to upload documents.',
  defaultSubject: 'Documents needed for your file',
  defaultMessage: 'Please upload a recent proof of address.',
  defaultDomain: 'portal.kyc.example',
};

function record(overrides: Partial<ClientUpdateRecord>): ClientUpdateRecord {
  return {
    requestId: crypto.randomUUID(),
    entityId: entity.id,
    recipientId: contact.id,
    recipientEmail: 'amelia@northwind.example',
    configId: 1,
    subject: 'Please review your company details',
    domain: 'portal.kyc.example',
    status: 'sent',
    error: null,
    requestedBy: 'reviewer',
    createdAt: '2026-03-02T09:15:00.000Z',
    sentAt: '2026-03-02T09:15:01.000Z',
    state: overrides.status === 'failed' ? 'failed' : 'sent',
    openedAt: null,
    submittedAt: null,
    reviewedAt: null,
    reviewedBy: null,
    expiresAt: overrides.status === 'failed' ? null : '2026-03-09T09:15:01.000Z',
    ...overrides,
  };
}

const ALLOWED_DOMAINS = ['portal.kyc.example', 'clients.northwind.example'];

/** People, configurations and a history that a successful send appends to. */
function serveEntityData(
  configs: ClientUpdateConfig[] = [informationConfig, documentsConfig],
  /** null: the service sends no allowed list, as a real identity service in gateway mode. */
  allowedDomains: string[] | null = ALLOWED_DOMAINS,
) {
  const history: ClientUpdateRecord[] = [];
  const people = [director, contact];
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
      const person = people.find((candidate) => candidate.id === params.id);
      return person ? envelope(person) : apiError(404, 'Not found.');
    }),
    apiHandler('GET /api/v2/client-update-configs', () =>
      allowedDomains ? { ...envelope(configs), allowedDomains } : envelope(configs),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([...history]),
    ),
  );
  return history;
}

function renderPanel() {
  return renderRoute(<ClientUpdatePanel entity={entity} />);
}

async function openDialog(user: ReturnType<typeof renderPanel>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Request update' }));
  return screen.findByRole('dialog', { name: 'Request a client update' });
}

test('preselects the primary contact and fills the message from the chosen configuration', async () => {
  serveEntityData();
  const { user } = renderPanel();
  const dialog = await openDialog(user);

  await waitFor(() =>
    expect(within(dialog).getByRole('combobox', { name: 'Recipient' })).toHaveValue(
      'Amelia Hart (Primary Contact)',
    ),
  );
  expect(within(dialog).getByRole('combobox', { name: 'E-mail configuration' })).toHaveValue(
    'Request updated information',
  );
  expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveValue(
    'Please review your company details',
  );
  expect(within(dialog).getByRole('textbox', { name: 'Message' })).toHaveValue(
    'Please check the information we hold about your company.',
  );
  expect(within(dialog).getByRole('combobox', { name: 'Client portal domain' })).toHaveValue(
    'portal.kyc.example',
  );
  const preview = within(dialog).getByRole('region', { name: 'Preview' });
  expect(preview).toHaveTextContent('To: Amelia Hart <amelia@northwind.example>');
  expect(preview).toHaveTextContent('https://portal.kyc.example/portal/…');

  // An edited message stays; the untouched subject follows the new configuration.
  await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), ' Thank you.');
  await user.click(within(dialog).getByRole('combobox', { name: 'E-mail configuration' }));
  await user.click(await screen.findByRole('option', { name: 'Request supporting documents' }));

  expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveValue(
    'Documents needed for your file',
  );
  expect(within(dialog).getByRole('textbox', { name: 'Message' })).toHaveValue(
    'Please check the information we hold about your company. Thank you.',
  );

  await user.click(within(dialog).getByRole('combobox', { name: 'Client portal domain' }));
  await user.click(await screen.findByRole('option', { name: 'clients.northwind.example' }));
  expect(preview).toHaveTextContent('https://clients.northwind.example/portal/…');
  expect(preview).toHaveTextContent('Subject: Documents needed for your file');
});

test('offers only the portal domains the server allows, nothing typed', async () => {
  serveEntityData();
  const { user } = renderPanel();
  const dialog = await openDialog(user);
  const domain = await within(dialog).findByRole('combobox', { name: 'Client portal domain' });
  expect(within(dialog).queryByRole('textbox', { name: 'Client portal domain' })).toBeNull();

  await user.click(domain);
  const options = await screen.findAllByRole('option', { name: /\.example$/ });
  expect(options.map((option) => option.textContent)).toEqual(ALLOWED_DOMAINS);
  await user.type(domain, 'attacker-portal.example');
  expect(domain).toHaveValue('portal.kyc.example');
});

test('offers the configurations’ own domains when the service sends no allowed list', async () => {
  serveEntityData(
    [informationConfig, { ...documentsConfig, defaultDomain: 'docs.kyc.example' }],
    null,
  );
  const { user } = renderPanel();
  const dialog = await openDialog(user);
  await user.click(await within(dialog).findByRole('combobox', { name: 'Client portal domain' }));
  const options = await screen.findAllByRole('option', { name: /\.example$/ });
  expect(options.map((option) => option.textContent)).toEqual([
    'portal.kyc.example',
    'docs.kyc.example',
  ]);
});

test('blocks an empty subject or one with a line break before anything is sent', async () => {
  serveEntityData([
    { ...informationConfig, defaultSubject: 'Update needed\r\nBcc: x@example.com' },
  ]);
  const sent: unknown[] = [];
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities/:id/request-client-update', ({ request }) => {
      sent.push(request);
      return apiError(500, 'Should not have been called.');
    }),
  );
  const { user } = renderPanel();
  const dialog = await openDialog(user);
  await within(dialog).findByRole('textbox', { name: 'Subject' });

  await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

  await waitFor(() =>
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveAccessibleDescription(
      'The subject cannot contain line breaks.',
    ),
  );

  await user.clear(within(dialog).getByRole('textbox', { name: 'Subject' }));
  await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

  await waitFor(() =>
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveAccessibleDescription(
      'Enter a subject.',
    ),
  );
  expect(sent).toHaveLength(0);
});

test('keeps the dialog open with a human message when the mail server is down', async () => {
  serveEntityData();
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities/:id/request-client-update', () =>
      apiError(502, 'The mail server did not accept the message: connect ECONNREFUSED 127.0.0.1:1'),
    ),
  );
  const { user } = renderPanel();
  const dialog = await openDialog(user);
  await within(dialog).findByRole('textbox', { name: 'Subject' });

  await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

  expect(
    await within(dialog).findByRole('alert', { name: 'The update request was not sent' }),
  ).toHaveTextContent('The e-mail could not be sent: the mail server did not answer.');
  expect(within(dialog).queryByText(/ECONNREFUSED/)).not.toBeInTheDocument();
  expect(screen.getByRole('dialog', { name: 'Request a client update' })).toBeInTheDocument();
});

test('shows the server’s field errors on their inputs', async () => {
  serveEntityData();
  server.use(
    apiHandler('POST /api/v2/entities/legal-entities/:id/request-client-update', () =>
      apiError(400, 'Invalid field domain: this portal is not configured.', [
        { field: 'domain', message: 'This portal is not configured.' },
      ]),
    ),
  );
  const { user } = renderPanel();
  const dialog = await openDialog(user);
  await within(dialog).findByRole('textbox', { name: 'Subject' });

  await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

  await waitFor(() =>
    expect(
      within(dialog).getByRole('combobox', { name: 'Client portal domain' }),
    ).toHaveAccessibleDescription(expect.stringContaining('This portal is not configured.')),
  );
});

test('sends the request, closes the dialog and lists the new request in the history', async () => {
  const history = serveEntityData();
  const bodies: unknown[] = [];
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/request-client-update',
      async ({ request, params }) => {
        const body = clientUpdateRequestSchema.parse(await request.json());
        bodies.push(body);
        const created = record({
          entityId: String(params.id),
          recipientId: body.recepientId,
          subject: body.emailSubject,
          configId: body.configId,
          domain: body.domain,
        });
        history.unshift(created);
        return envelope(
          {
            requestId: created.requestId,
            recipientEmail: created.recipientEmail,
            sentAt: created.sentAt ?? '',
          },
          202,
        );
      },
      { status: 202 },
    ),
  );
  const { user } = renderPanel();
  expect(await screen.findByText('No update requests yet')).toBeInTheDocument();
  const dialog = await openDialog(user);
  await waitFor(() =>
    expect(within(dialog).getByRole('combobox', { name: 'Recipient' })).toHaveValue(
      'Amelia Hart (Primary Contact)',
    ),
  );

  await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

  expect(
    await screen.findByText('Update request sent to Amelia Hart (amelia@northwind.example).'),
  ).toBeInTheDocument();
  await waitFor(() =>
    expect(
      screen.queryByRole('dialog', { name: 'Request a client update' }),
    ).not.toBeInTheDocument(),
  );
  expect(bodies).toEqual([
    {
      recepientId: contact.id,
      emailSubject: 'Please review your company details',
      emailMessage: 'Please check the information we hold about your company.',
      configId: 1,
      domain: 'portal.kyc.example',
    },
  ]);
  const table = await screen.findByRole('table', { name: 'Update requests' });
  const rows = within(table).getAllByRole('row');
  expect(rows).toHaveLength(2);
  expect(rows[1]).toHaveTextContent('Amelia Hart');
  expect(rows[1]).toHaveTextContent('Please review your company details');
  expect(rows[1]).toHaveTextContent('Sent');
});

test('shows a failed request in words, without Retry where the service cannot resend', async () => {
  const history = serveEntityData();
  history.push(
    record({ status: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:1', sentAt: null }),
  );
  renderPanel();

  const table = await screen.findByRole('table', { name: 'Update requests' });
  expect(within(table).getByText('Failed')).toBeInTheDocument();
  expect(
    within(table).getByText('The e-mail could not be sent: the mail server did not answer.'),
  ).toBeInTheDocument();
  expect(within(table).queryByText(/ECONNREFUSED/)).not.toBeInTheDocument();
  expect(within(table).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
  expect(within(table).getByText('reviewer')).toBeInTheDocument();
});

test('Retry sends a failed request again once per click, and the row turns Sent', async () => {
  const history = serveEntityData();
  const failed = record({
    status: 'failed',
    error: 'connect ECONNREFUSED 127.0.0.1:1',
    sentAt: null,
  });
  history.push(failed);
  const resent: string[] = [];
  let mailServerUp = false;
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/resend',
      ({ params }) => {
        resent.push(String(params.requestId));
        if (!mailServerUp)
          return apiError(
            502,
            'The mail server did not accept the message: Greeting never received',
          );
        history[0] = {
          ...failed,
          status: 'sent',
          state: 'sent',
          error: null,
          sentAt: '2026-03-02T10:00:00.000Z',
        };
        return envelope(
          {
            requestId: failed.requestId,
            recipientEmail: failed.recipientEmail,
            sentAt: '2026-03-02T10:00:00.000Z',
          },
          202,
        );
      },
      { status: 202 },
    ),
  );
  const { user } = renderRoute(<ClientUpdatePanel entity={entity} canResend />);
  const table = await screen.findByRole('table', { name: 'Update requests' });
  const retry = within(table).getByRole('button', {
    name: 'Retry the update request to amelia@northwind.example',
  });

  await user.click(retry);
  expect(
    await screen.findByRole('alert', { name: 'The update request was not sent again' }),
  ).toHaveTextContent('The e-mail could not be sent: the mail server did not answer.');
  expect(resent).toEqual([failed.requestId]);

  mailServerUp = true;
  await user.dblClick(
    within(table).getByRole('button', {
      name: 'Retry the update request to amelia@northwind.example',
    }),
  );
  await waitFor(() => expect(within(table).getByText('Sent')).toBeInTheDocument());
  expect(resent).toEqual([failed.requestId, failed.requestId]);
  expect(within(table).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
});

test('shows each state with its times (a received response is reviewed in ClientResponsePanel)', async () => {
  const history = serveEntityData();
  history.push(
    record({
      state: 'submitted',
      openedAt: '2026-03-03T08:00:00.000Z',
      submittedAt: '2026-03-03T08:30:00.000Z',
    }),
    record({ state: 'opened', openedAt: '2026-03-04T12:00:00.000Z' }),
    record({ state: 'expired', expiresAt: '2026-03-09T09:15:01.000Z' }),
    record({
      state: 'reviewed',
      submittedAt: '2026-03-01T10:00:00.000Z',
      reviewedAt: '2026-03-01T11:00:00.000Z',
      reviewedBy: 'grace',
    }),
  );
  renderPanel();
  const table = await screen.findByRole('table', { name: 'Update requests' });
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[0]).toHaveTextContent('Response received');
  expect(rows[0]).toHaveTextContent('Answered 3 Mar 2026, 08:30 UTC');
  expect(rows[1]).toHaveTextContent('Opened');
  expect(rows[1]).toHaveTextContent('Link works until 9 Mar 2026, 09:15 UTC');
  expect(rows[2]).toHaveTextContent('Expired');
  expect(rows[2]).toHaveTextContent('Link lapsed 9 Mar 2026, 09:15 UTC');
  expect(rows[3]).toHaveTextContent('Reviewed 1 Mar 2026, 11:00 UTC by grace');
  // One way to close a response: the response on top of the page, not a second button here.
  expect(
    within(table).queryByRole('button', { name: /Mark the response/ }),
  ).not.toBeInTheDocument();
});

test('lists a person who holds two roles once, with both roles', async () => {
  serveEntityData();
  const twoRoles = buildLegalEntity({
    linkedEntities: [
      { relationship: 'Primary Contact', entityID: contact.id },
      { relationship: 'Director', entityID: contact.id },
      { relationship: 'Director', entityID: director.id },
    ],
  });
  const { user } = renderRoute(<ClientUpdatePanel entity={twoRoles} />);
  const dialog = await openDialog(user);
  const recipient = within(dialog).getByRole('combobox', { name: 'Recipient' });
  await waitFor(() => expect(recipient).toHaveValue('Amelia Hart (Primary Contact, Director)'));
  await user.click(recipient);
  expect(await screen.findAllByRole('option', { name: /Amelia Hart/ })).toHaveLength(1);
});

describe('a company whose record names no person (the real service)', () => {
  const unnamed = buildLegalEntity({ linkedEntities: [] });
  // The real service links people to a company on the people's side.
  const ownDirector = buildNaturalPerson({
    personalInformation: {
      firstName: 'Oskar',
      lastName: 'Lind',
      email: 'oskar@unnamed.example',
      linkedEntities: [{ relationship: 'Director', entityID: unnamed.id }],
    },
  });
  const otherClientsPerson = buildNaturalPerson({
    personalInformation: {
      firstName: 'Nils',
      lastName: 'Lind',
      email: 'nils@elsewhere.example',
      linkedEntities: [{ relationship: 'Director', entityID: 'some-other-company' }],
    },
  });

  function servePeople() {
    serveEntityData();
    const searched: string[] = [];
    server.use(
      apiHandler('GET /api/v2/entities/natural-persons/:id', ({ params }) => {
        const person = [ownDirector, otherClientsPerson].find((one) => one.id === params.id);
        return person ? envelope(person) : apiError(404, 'Not found.');
      }),
      apiHandler('GET /api/v2/entities/natural-persons', ({ request }) => {
        searched.push(new URL(request.url).searchParams.toString());
        return envelope([ownDirector.id, otherClientsPerson.id]);
      }),
    );
    return searched;
  }

  test('only a person linked to the entity can be chosen from the last-name search', async () => {
    const searched = servePeople();
    const { user } = renderRoute(<ClientUpdatePanel entity={unnamed} />);
    expect(screen.getByRole('button', { name: 'Request update' })).toBeDisabled();

    await user.type(screen.getByLabelText('Find a person by last name'), 'Lind');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    const choose = await screen.findByRole('button', { name: 'Choose Oskar Lind as a recipient' });
    expect(await screen.findByText(/Nils Lind/)).toBeInTheDocument();
    expect(screen.getByText(/^Not linked to this legal entity/)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Choose Nils Lind as a recipient' }),
    ).not.toBeInTheDocument();
    await user.click(choose);
    expect(searched).toEqual(['lastName=Lind']);

    const dialog = await openDialog(user);
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Recipient' })).toHaveValue('Oskar Lind'),
    );
  });

  test('a pasted entity ID is checked by reading the person and their link', async () => {
    servePeople();
    const { user } = renderRoute(<ClientUpdatePanel entity={unnamed} />);
    const pasted = screen.getByLabelText('…or paste a person’s entity ID');

    await user.type(pasted, 'no-such-person');
    await user.click(screen.getByRole('button', { name: 'Use' }));
    expect(await screen.findByText('No person has this entity ID.')).toBeInTheDocument();

    await user.clear(pasted);
    await user.type(pasted, otherClientsPerson.id);
    await user.click(screen.getByRole('button', { name: 'Use' }));
    expect(await screen.findByText(/^Not linked to this legal entity/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request update' })).toBeDisabled();

    await user.clear(pasted);
    await user.type(pasted, ownDirector.id);
    await user.click(screen.getByRole('button', { name: 'Use' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Request update' })).toBeEnabled(),
    );
  });
});

test('on a phone each request is a card of a list with its state', async () => {
  const desktop = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  // Below the sm breakpoint, where the five-column table put the state off screen at 390 px.
  const phone = '(max-width: 47.99em)';
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({ matches: query === phone, media: query, ...listeners }),
  });
  try {
    const history = serveEntityData();
    history.push(
      record({
        state: 'submitted',
        openedAt: '2026-03-03T08:00:00.000Z',
        submittedAt: '2026-03-03T08:30:00.000Z',
      }),
    );
    renderPanel();
    const list = await screen.findByRole('list', { name: 'Update requests' });
    expect(screen.queryByRole('table', { name: 'Update requests' })).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    expect(card).toHaveTextContent('Response received');
    expect(card).toHaveTextContent('Answered 3 Mar 2026, 08:30 UTC');
  } finally {
    if (desktop) Object.defineProperty(window, 'matchMedia', desktop);
  }
});
