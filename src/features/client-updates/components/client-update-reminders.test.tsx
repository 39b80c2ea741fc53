import { screen, waitFor, within } from '@testing-library/react';
import type { ClientUpdateRecord } from '../../../../contract/client-updates.ts';
import { buildLegalEntity, buildNaturalPerson } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { ClientUpdatePanel } from './client-update-panel.tsx';

vi.setConfig({ testTimeout: 60_000 });

const contact = buildNaturalPerson({
  personalInformation: { firstName: 'Amelia', lastName: 'Hart', email: 'amelia@northwind.example' },
});
const entity = buildLegalEntity({
  linkedEntities: [{ relationship: 'Primary Contact', entityID: contact.id }],
});
const DAY_MS = 86_400_000;

function waitingRecord(overrides: Partial<ClientUpdateRecord> = {}): ClientUpdateRecord {
  const sentAt = new Date(Date.now() - 4 * DAY_MS).toISOString();
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
    createdAt: sentAt,
    sentAt,
    state: 'sent',
    openedAt: null,
    submittedAt: null,
    reviewedAt: null,
    reviewedBy: null,
    expiresAt: new Date(Date.parse(sentAt) + 7 * DAY_MS).toISOString(),
    attempts: [
      { attempt: 1, kind: 'first', outcome: 'sent', at: sentAt, error: null, sentBy: 'reviewer' },
    ],
    reminderDueAt: new Date(Date.parse(sentAt) + 3 * DAY_MS).toISOString(),
    ...overrides,
  };
}

function serve(history: ClientUpdateRecord[]) {
  server.use(
    apiHandler('GET /api/v2/entities/natural-persons/:id', () => envelope(contact)),
    apiHandler('GET /api/v2/entities/legal-entities/:id/client-update-requests', () =>
      envelope([...history]),
    ),
  );
}

test('Send reminder once it is due: a double click is one reminder, and the attempt is listed', async () => {
  const waiting = waitingRecord();
  const history = [waiting];
  serve(history);
  const keys: string[] = [];
  let release: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (release = resolve));
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/remind',
      async ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key') ?? '');
        await answered;
        const at = new Date().toISOString();
        history[0] = {
          ...waiting,
          attempts: [
            ...(waiting.attempts ?? []),
            { attempt: 2, kind: 'reminder', outcome: 'sent', at, error: null, sentBy: 'reviewer' },
          ],
          reminderDueAt: new Date(Date.now() + 3 * DAY_MS).toISOString(),
        };
        return envelope(
          { requestId: waiting.requestId, recipientEmail: waiting.recipientEmail, sentAt: at },
          202,
        );
      },
      { status: 202 },
    ),
  );
  const { user } = renderRoute(<ClientUpdatePanel entity={entity} canResend />);
  const table = await screen.findByRole('table', { name: 'Update requests' });
  const button = within(table).getByRole('button', {
    name: 'Send a reminder to amelia@northwind.example',
  });
  await user.dblClick(button);
  release();

  const attempts = await within(table).findByRole('list', { name: 'E-mails of this request' });
  expect(
    within(attempts)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringMatching(/^First e-mail, .*: sent$/),
    expect.stringMatching(/^Reminder, .*: sent$/),
  ]);
  expect(keys).toHaveLength(1);
  expect(keys[0]).not.toBe('');
  // The next reminder is days away: the row says from when, not a button.
  expect(within(table).queryByRole('button', { name: /Send a reminder/ })).not.toBeInTheDocument();
  expect(within(table).getByText(/^Reminder possible from /)).toBeInTheDocument();
});

test('a refused reminder is said in words; an auditor, a gateway or an answered request gets no button', async () => {
  const waiting = waitingRecord();
  serve([waiting, waitingRecord({ state: 'submitted', reminderDueAt: null })]);
  server.use(
    apiHandler(
      'POST /api/v2/entities/legal-entities/:id/client-update-requests/:requestId/remind',
      () => apiError(502, 'The mail server did not accept the message: connect ECONNREFUSED'),
      { status: 202 },
    ),
  );
  const { user, unmount } = renderRoute(<ClientUpdatePanel entity={entity} canResend />);
  const table = await screen.findByRole('table', { name: 'Update requests' });
  const buttons = within(table).getAllByRole('button', { name: /Send a reminder/ });
  expect(buttons).toHaveLength(1);
  await user.click(buttons[0] as HTMLElement);
  expect(await screen.findByRole('alert', { name: 'The reminder was not sent' })).toHaveTextContent(
    'The e-mail could not be sent: the mail server did not answer.',
  );
  unmount();

  for (const props of [{ canResend: true, readOnly: true }, { canResend: false }]) {
    const view = renderRoute(<ClientUpdatePanel entity={entity} {...props} />);
    const list = await screen.findByRole('table', { name: 'Update requests' });
    await waitFor(() => expect(within(list).getAllByText('Sent').length).toBeGreaterThan(0));
    expect(within(list).queryByRole('button', { name: /Send a reminder/ })).not.toBeInTheDocument();
    view.unmount();
  }
});
