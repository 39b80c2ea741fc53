import { screen, waitFor, within } from '@testing-library/react';
import type { Note } from '../../../../contract/notes.ts';
import { apiError, apiHandler, envelope } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { NotesThread } from './notes-thread.tsx';

vi.setConfig({ testTimeout: 30_000 });

function note(text: string, at: string, author = 'alice'): Note {
  return { id: crypto.randomUUID(), author, at, text };
}

/** A server that keeps notes in memory, newest first, two to a page. */
function serveNotes(initial: Note[], options: { failPost?: boolean } = {}) {
  const notes = [...initial];
  const posted: unknown[] = [];
  server.use(
    apiHandler('GET /api/v2/entities/:id/notes', ({ request }) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      const start = cursor === null ? 0 : Number(cursor);
      const page = notes.slice(start, start + 2);
      return {
        ...envelope(page),
        nextCursor: start + 2 < notes.length ? String(start + 2) : null,
      };
    }),
    apiHandler('POST /api/v2/entities/:id/notes', async ({ request }) => {
      const body = (await request.json()) as { text: string };
      posted.push(body);
      if (options.failPost) return apiError(500, 'Something went wrong on the server.');
      const added = note(body.text, '2026-06-15T10:00:00.000Z', 'bob');
      notes.unshift(added);
      return envelope(added, 201);
    }),
  );
  return posted;
}

test('shows notes newest first with author and time, and loads older ones', async () => {
  serveNotes([
    note('Third: accounts received', '2026-06-14T12:00:00.000Z', 'bob'),
    note('Second: chased the director', '2026-06-13T12:00:00.000Z'),
    note('First: opened the review', '2026-06-12T12:00:00.000Z'),
  ]);
  const { user } = renderRoute(<NotesThread entityId="le-1" />);
  const list = await screen.findByRole('list', { name: 'Notes, newest first' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringContaining('Third: accounts received'),
    expect.stringContaining('Second: chased the director'),
  ]);
  expect(within(list).getByText('bob')).toBeInTheDocument();
  expect(within(list).getByText('14 Jun 2026, 12:00 UTC')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Show older notes' }));
  expect(await within(list).findByText('First: opened the review')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Show older notes' })).not.toBeInTheDocument();
});

test('Ctrl+Enter and Cmd+Enter send the note; the box empties once it is saved', async () => {
  const posted = serveNotes([]);
  const { user } = renderRoute(<NotesThread entityId="le-1" />);
  expect(await screen.findByText(/No notes yet/)).toBeInTheDocument();
  const box = screen.getByRole('textbox', { name: 'Add a note' });
  await user.type(box, '  Waiting for the bank statement  ');
  await user.keyboard('{Control>}{Enter}{/Control}');
  await waitFor(() => expect(posted).toEqual([{ text: 'Waiting for the bank statement' }]));
  expect(await screen.findByText('Waiting for the bank statement')).toBeInTheDocument();
  await waitFor(() => expect(box).toHaveValue(''));

  await user.type(box, 'Second thought');
  await user.keyboard('{Meta>}{Enter}{/Meta}');
  await waitFor(() => expect(posted).toHaveLength(2));
  // Enter alone is a new line, not a send.
  await user.type(box, 'one{Enter}two');
  expect(posted).toHaveLength(2);
});

test('an empty note is refused in place; a failed send keeps the text', async () => {
  const posted = serveNotes([], { failPost: true });
  const { user } = renderRoute(<NotesThread entityId="le-1" />);
  const box = await screen.findByRole('textbox', { name: 'Add a note' });
  await user.click(screen.getByRole('button', { name: 'Add note' }));
  expect(await screen.findByText('Write a note first.')).toBeInTheDocument();
  expect(posted).toHaveLength(0);

  await user.type(box, 'Do not lose me');
  await user.click(screen.getByRole('button', { name: 'Add note' }));
  expect(await screen.findByText('The note was not saved')).toBeInTheDocument();
  expect(box).toHaveValue('Do not lose me');
});

test("an author reads as 'Name (username)' when the server names the account, else as the username", async () => {
  serveNotes([
    { ...note('Named', '2026-06-14T12:00:00.000Z', 'rhea'), authorName: 'Rhea Reviewer' },
    { ...note('Gone', '2026-06-13T12:00:00.000Z', 'former'), authorName: null },
  ]);
  renderRoute(<NotesThread entityId="le-1" />);
  const list = await screen.findByRole('list', { name: 'Notes, newest first' });
  expect(within(list).getByText('Rhea Reviewer (rhea)')).toBeInTheDocument();
  expect(within(list).getByText('former')).toBeInTheDocument();
});
