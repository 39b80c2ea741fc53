import { screen, waitFor, within } from '@testing-library/react';
import { buildDocument } from '../../../../contract/testing/factories.ts';
import { apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { DocumentList } from './document-list.tsx';

vi.setConfig({ testTimeout: 30_000 });

const statement = buildDocument({ fileName: 'statement.pdf', documentApproved: false });

function serveDecisions() {
  const sent: unknown[] = [];
  server.use(
    apiHandler('PATCH /api/v2/documents/:id', async ({ request }) => {
      const decision = (await request.json()) as { documentApproved: boolean; reason?: string };
      sent.push(decision);
      return envelope({
        ...statement,
        documentApproved: decision.documentApproved,
        decision: {
          approved: decision.documentApproved,
          by: 'bob',
          at: '2026-06-15T10:00:00.000Z',
          reason: decision.reason ?? null,
        },
      });
    }),
  );
  return sent;
}

test('without document decisions the list offers no Approve or Reject', () => {
  renderRoute(<DocumentList documents={[statement]} onView={() => undefined} />);
  expect(screen.queryByRole('button', { name: 'Approve statement.pdf' })).not.toBeInTheDocument();
});

test('approves a document, and rejects one only with a reason', async () => {
  const sent = serveDecisions();
  const onDecided = vi.fn(() => Promise.resolve());
  const { user } = renderRoute(
    <DocumentList documents={[statement]} onView={() => undefined} onDecided={onDecided} />,
  );
  await user.click(screen.getByRole('button', { name: 'Approve statement.pdf' }));
  await waitFor(() => expect(sent).toEqual([{ documentApproved: true }]));
  expect(onDecided).toHaveBeenCalledTimes(1);

  await user.click(screen.getByRole('button', { name: 'Reject statement.pdf' }));
  await user.click(screen.getByRole('button', { name: 'Reject document' }));
  expect(screen.getByText('Give a reason for rejecting the document.')).toBeInTheDocument();
  expect(sent).toHaveLength(1);
  await user.type(
    screen.getByRole('textbox', { name: /reason for rejecting statement.pdf/i }),
    'Older than three months',
  );
  await user.click(screen.getByRole('button', { name: 'Reject document' }));
  await waitFor(() =>
    expect(sent[1]).toEqual({ documentApproved: false, reason: 'Older than three months' }),
  );
});

test('a rejected document says so, by whom and why', () => {
  renderRoute(
    <DocumentList
      documents={[
        {
          ...statement,
          decision: {
            approved: false,
            by: 'alice',
            at: '2026-06-15T10:00:00.000Z',
            reason: 'Unreadable scan',
          },
        },
      ]}
      onView={() => undefined}
      onDecided={() => Promise.resolve()}
    />,
  );
  const row = screen.getByRole('row', { name: /statement.pdf/ });
  expect(within(row).getByText('Rejected')).toBeInTheDocument();
  expect(
    within(row).getByText(/Rejected by alice, 15 Jun 2026.*: Unreadable scan/),
  ).toBeInTheDocument();
  expect(within(row).getByRole('button', { name: 'Reject statement.pdf' })).toBeDisabled();
});
