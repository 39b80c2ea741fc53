import { screen, waitFor, within } from '@testing-library/react';
import {
  contactDecisionSchema,
  type ClientResponse,
  type ClientUpdateRecord,
} from '../../../../contract/client-updates.ts';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import { buildDocument } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ClientResponsePanel } from './client-response-panel.tsx';

vi.setConfig({ testTimeout: 30_000 });

const ENTITY_ID = 'le-northwind';
const REQUEST_ID = 'req-1';

const submitted: ClientUpdateRecord = {
  requestId: REQUEST_ID,
  entityId: ENTITY_ID,
  recipientId: 'np-amelia',
  recipientEmail: 'amelia@northwind.example',
  configId: 2,
  subject: 'Documents needed for your file',
  domain: 'portal.kyc.example',
  status: 'sent',
  error: null,
  requestedBy: 'reviewer',
  createdAt: '2026-03-02T09:15:00.000Z',
  sentAt: '2026-03-02T09:15:01.000Z',
  state: 'submitted',
  openedAt: '2026-03-03T08:00:00.000Z',
  submittedAt: '2026-03-03T08:30:00.000Z',
  reviewedAt: null,
  reviewedBy: null,
  expiresAt: '2026-03-09T09:15:01.000Z',
};

function answer(overrides: Partial<ClientResponse> = {}): ClientResponse {
  return {
    requestId: REQUEST_ID,
    recipientId: 'np-amelia',
    submittedAt: '2026-03-03T08:30:00.000Z',
    contact: [
      { field: 'phone', current: '+44 20 7946 0000', proposed: '+44 20 7946 0999' },
      { field: 'email', current: null, proposed: 'amelia.hart@northwind.example' },
    ],
    contactOutcome: null,
    contactDecidedBy: null,
    contactDecidedAt: null,
    documents: [
      buildDocument({ fileName: 'passport.pdf', type: 'Passport', clientRequestId: REQUEST_ID }),
      buildDocument({
        fileName: 'utility-bill.png',
        type: 'Proof of Address',
        clientRequestId: REQUEST_ID,
        decision: { approved: true, by: 'grace', at: '2026-03-03T09:00:00.000Z', reason: null },
      }),
    ],
    ...overrides,
  };
}

/** The history and the response as the server holds them; the test changes them through the routes. */
function serve(response: ClientResponse | null, history: ClientUpdateRecord[] = [submitted]) {
  const state = {
    response,
    history: [...history],
    contactCalls: [] as unknown[],
    reviewed: 0,
    failing: false,
  };
  server.use(
    apiHandler('GET /api/v2/client-update-configs', () =>
      envelope([
        {
          configId: 2,
          name: 'Request supporting documents',
          description: 'Asks the client to upload documents.',
          defaultSubject: 'Documents needed for your file',
          defaultMessage: 'Please upload a recent proof of address.',
          defaultDomain: 'portal.kyc.example',
        },
      ]),
    ),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope(state.history),
    ),
    apiHandler(
      'GET /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/response',
      () =>
        state.failing
          ? apiError(500, 'The server could not answer.')
          : state.response
            ? envelope(state.response)
            : apiError(404, 'The client has not answered this request.'),
    ),
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/review',
      () => {
        state.reviewed += 1;
        const closed = {
          ...submitted,
          state: 'reviewed' as const,
          reviewedAt: '2026-03-05T09:00:00.000Z',
          reviewedBy: 'reviewer',
        };
        state.history = [closed];
        return envelope(closed);
      },
    ),
  );
  return state;
}

function renderPanel({
  readOnly = false,
  onChanged = () => Promise.resolve(),
}: { readOnly?: boolean; onChanged?: () => Promise<unknown> } = {}) {
  return renderRoute(
    <ClientResponsePanel
      entityId={ENTITY_ID}
      readOnly={readOnly}
      onChanged={onChanged}
      // Stands for the documents feature's controls, which the entity page composes here.
      renderDocumentDecision={(document: DocumentMetadata) =>
        readOnly ? null : <button type="button">Decide on {document.fileName}</button>
      }
    />,
  );
}

test('shows the answer on top: what was asked, when, the documents and the contact diff; Apply and Mark reviewed close it', async () => {
  const state = serve(answer());
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/response/contact',
      async ({ request }) => {
        const decision = contactDecisionSchema.parse(await request.json());
        state.contactCalls.push(decision);
        state.response = {
          ...answer(),
          contactOutcome: 'applied',
          contactDecidedBy: 'reviewer',
          contactDecidedAt: '2026-03-04T10:00:00.000Z',
        };
        return envelope(state.response);
      },
    ),
  );
  const changed: string[] = [];
  const { user } = renderPanel({
    onChanged: () => {
      changed.push('changed');
      return Promise.resolve();
    },
  });

  const panel = await screen.findByRole('region', { name: 'Client response' });
  const documents = await within(panel).findByRole('region', {
    name: 'Documents from the client',
  });
  await waitFor(() =>
    expect(panel).toHaveTextContent(
      'Asked: Documents needed for your file (Request supporting documents)',
    ),
  );
  expect(panel).toHaveTextContent('Answered by amelia@northwind.example, 3 Mar 2026, 08:30 UTC');
  const items = within(documents).getAllByRole('listitem');
  expect(items[0]).toHaveTextContent('passport.pdf');
  expect(items[0]).toHaveTextContent('From the client, not yet reviewed');
  expect(within(items[0] as HTMLElement).getByRole('button')).toHaveAccessibleName(
    'Decide on passport.pdf',
  );
  expect(items[1]).toHaveTextContent('From the client, approved');

  const diff = within(panel).getByRole('table', { name: 'Contact corrections' });
  const phoneRow = within(diff).getByRole('row', { name: /Phone/ });
  expect(
    within(phoneRow)
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  ).toEqual(['+44 20 7946 0000', '+44 20 7946 0999']);
  expect(within(diff).getByRole('row', { name: /E-mail/ })).toHaveTextContent(
    'E-mailNoneamelia.hart@northwind.example',
  );
  expect(panel).toHaveTextContent(
    'Still open: 1 document undecided, contact corrections not applied or dismissed.',
  );

  await user.click(
    within(panel).getByRole('button', {
      name: "Apply the client's contact corrections to the record",
    }),
  );
  expect(
    await within(panel).findByText('Applied by reviewer, 4 Mar 2026, 10:00 UTC'),
  ).toBeVisible();
  expect(state.contactCalls).toEqual([{ action: 'apply' }]);
  expect(within(panel).queryByRole('button', { name: /Dismiss/ })).not.toBeInTheDocument();
  expect(changed).toEqual(['changed']);

  await user.click(
    within(panel).getByRole('button', {
      name: 'Mark the response of amelia@northwind.example reviewed',
    }),
  );
  await waitFor(() =>
    expect(screen.queryByRole('region', { name: 'Client response' })).not.toBeInTheDocument(),
  );
  expect(state.reviewed).toBe(1);
  expect(changed).toEqual(['changed', 'changed']);
});

test('a failing Apply loses nothing: the diff and its buttons stay, and the next click applies', async () => {
  const state = serve(answer());
  let failNext = true;
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/response/contact',
      async ({ request }) => {
        state.contactCalls.push(contactDecisionSchema.parse(await request.json()));
        if (failNext) {
          failNext = false;
          return apiError(503, 'The database is busy. Try again.');
        }
        state.response = {
          ...answer(),
          contactOutcome: 'dismissed',
          contactDecidedBy: 'reviewer',
          contactDecidedAt: '2026-03-04T10:00:00.000Z',
        };
        return envelope(state.response);
      },
    ),
  );
  const { user } = renderPanel();
  const panel = await screen.findByRole('region', { name: 'Client response' });
  const dismiss = await within(panel).findByRole('button', {
    name: "Dismiss the client's contact corrections",
  });
  await user.click(dismiss);

  const alert = await within(panel).findByRole('alert');
  expect(alert).toHaveTextContent('The contact details were not changed');
  expect(alert).toHaveTextContent('The database is busy. Try again.');
  const diff = within(panel).getByRole('table', { name: 'Contact corrections' });
  expect(diff).toHaveTextContent('+44 20 7946 0999');
  expect(diff).toHaveTextContent('amelia.hart@northwind.example');
  expect(
    within(panel).getByRole('button', {
      name: "Apply the client's contact corrections to the record",
    }),
  ).toBeEnabled();

  await user.click(
    within(panel).getByRole('button', { name: "Dismiss the client's contact corrections" }),
  );
  expect(
    await within(panel).findByText('Dismissed by reviewer, 4 Mar 2026, 10:00 UTC'),
  ).toBeVisible();
  expect(state.contactCalls).toEqual([{ action: 'dismiss' }, { action: 'dismiss' }]);
  expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
});

test('an account that may not act reads the response without a button', async () => {
  serve(answer());
  renderPanel({ readOnly: true });
  const panel = await screen.findByRole('region', { name: 'Client response' });
  const diff = await within(panel).findByRole('table', { name: 'Contact corrections' });
  expect(diff).toHaveTextContent('+44 20 7946 0999');
  expect(within(panel).getByText('passport.pdf')).toBeVisible();
  expect(within(panel).getByText('Not applied yet.')).toBeVisible();
  expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
});

test('shows nothing without a submitted answer, and an error with a retry when the answer fails to load', async () => {
  serve(null, [{ ...submitted, state: 'reviewed', reviewedAt: '2026-03-04T00:00:00.000Z' }]);
  const first = renderPanel();
  // The history loads (its request is answered), and no answer waits.
  await waitFor(() => expect(first.queryClient.isFetching()).toBe(0));
  expect(screen.queryByRole('region', { name: 'Client response' })).not.toBeInTheDocument();
  first.unmount();

  const state = serve(answer({ contact: [] }));
  state.failing = true;
  const { user } = renderPanel();
  const panel = await screen.findByRole('region', { name: 'Client response' });
  expect(await within(panel).findByText("The client's response could not be loaded")).toBeVisible();
  state.failing = false;
  await user.click(within(panel).getByRole('button', { name: /Try again|Retry/ }));
  expect(await within(panel).findByText('passport.pdf')).toBeVisible();
  expect(
    within(panel).queryByRole('table', { name: 'Contact corrections' }),
  ).not.toBeInTheDocument();
});

test.each([
  ['an empty answer', answer({ contact: [], documents: [] })],
  ['no portal answer (404: a webhook in gateway mode)', null],
])('%s says there is nothing to review here, and Mark reviewed stays', async (_, response) => {
  serve(response);
  renderPanel();
  const panel = await screen.findByRole('region', { name: 'Client response' });
  expect(
    await within(panel).findByText(
      'The answer holds no documents or contact corrections to review here.',
    ),
  ).toBeVisible();
  expect(
    within(panel).getByRole('button', {
      name: 'Mark the response of amelia@northwind.example reviewed',
    }),
  ).toBeEnabled();
});

test('on a phone the corrections are one card per field, each with both values', async () => {
  const desktop = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  const phone = '(max-width: 47.99em)';
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({ matches: query === phone, media: query, ...listeners }),
  });
  try {
    serve(answer());
    renderPanel();
    const corrections = await screen.findByRole('region', {
      name: 'Contact corrections from the client',
    });
    expect(within(corrections).queryByRole('table')).not.toBeInTheDocument();
    const [phoneCard] = within(corrections).getAllByRole('listitem');
    expect(phoneCard).toHaveTextContent(
      'PhoneOn record+44 20 7946 0000From the client+44 20 7946 0999',
    );
  } finally {
    if (desktop) Object.defineProperty(window, 'matchMedia', desktop);
  }
});
