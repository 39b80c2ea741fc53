import { screen, within } from '@testing-library/react';
import type { AuditEvent } from '../../../../contract/audit.ts';
import { apiHandler } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { auditPage, buildAuditEvent, present } from '../testing/audit-fixtures.ts';
import { AuditLogPage } from './audit-log-page.tsx';
import { EntityActivity } from './entity-activity.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ENTITY = '00000000-0000-4000-8000-00000000a001';
/** C0 and C1 controls, separators and direction overrides: nothing of these may reach the page. */
const HIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Every text field an event carries, each with a hostile character of its own. */
function hostileEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return buildAuditEvent({
    actor: 'evil\r\nadmin\u001b[31m',
    action: 'note.add\u0007',
    entityId: ENTITY,
    clientAddress: '203.0.113.7\u2028',
    requestId: 'req\u202Egpj.exe',
    detail: { reason: 'scan\u0000unreadable', fileName: 'pass\u0085port.pdf' },
    ...overrides,
  });
}

test('the audit log shows every text field of an event with its control characters escaped', async () => {
  const refused = hostileEvent({
    action: 'verification.confirm',
    outcome: 'denied',
    detail: { status: 403, reason: 'four-eyes', message: 'Four-eyes rule\u001b[2J: not yours.' },
  });
  server.use(apiHandler('GET /api/v2/audit-events', () => auditPage([hostileEvent(), refused])));
  renderRoute(<AuditLogPage />, { path: '/audit', routePath: '/audit' });

  await screen.findByText(/refused \(403\)/, {}, { timeout: 10_000 });
  const table = screen.getByRole('table', { name: /Audit events, newest first/ });
  const [, row, refusedRow] = within(table).getAllByRole('row');
  const shown = present(row, 'the hostile event').textContent;
  expect(shown).not.toMatch(HIDDEN);
  for (const escaped of [
    String.raw`evil\u000d\u000aadmin\u001b[31m`,
    String.raw`note.add\u0007`,
    String.raw`203.0.113.7\u2028`,
    String.raw`req\u202egpj.exe`,
    String.raw`note.add\u0007: scan\u0000unreadable`,
  ]) {
    expect(shown).toContain(escaped);
  }
  const refusal = present(refusedRow, 'the refused event').textContent;
  expect(refusal).not.toMatch(HIDDEN);
  expect(refusal).toContain(
    String.raw`Confirmed review outcome, refused (403): Four-eyes rule\u001b[2J: not yours.`,
  );
  expect(refusal).toContain('Denied');
});

test("an entity's activity shows its events' actor and sentence escaped", async () => {
  server.use(
    apiHandler('GET /api/v2/entities/:id/audit-events', ({ request }) => {
      const kind = new URL(request.url).searchParams.get('kind');
      return auditPage(
        kind === 'views'
          ? []
          : [
              hostileEvent({
                action: 'document.decide',
                detail: { approved: false, reason: 'blur\u001b]8;;', fileName: 'id\u202Efdp.exe' },
              }),
            ],
      );
    }),
  );
  renderRoute(<EntityActivity entityId={ENTITY} />);

  const sentence = await screen.findByText(/Rejected document/);
  expect(sentence).toHaveTextContent(String.raw`Rejected document id\u202efdp.exe: blur\u001b]8;;`);
  expect(sentence).toHaveAttribute('title', String.raw`document.decide`);
  const item = present(sentence.closest('li') ?? undefined, 'the activity item');
  expect(item.textContent).not.toMatch(HIDDEN);
  expect(item).toHaveTextContent(String.raw`by evil\u000d\u000aadmin\u001b[31m`);
});
