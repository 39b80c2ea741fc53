import crypto from 'node:crypto';
import type { Note, NoteListQuery } from '../../contract/notes.ts';
import { accountsRepository } from '../auth/accounts-repository.ts';
import type { Db } from '../db/database.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { notesRepository, type NoteKey, type NoteRow, type NotesTable } from './repository.ts';

const noteOf = (row: NoteRow): Note => ({
  id: row.id,
  author: row.author,
  at: row.at,
  text: row.text,
});

/** The cursor is the last note of a page. */
function cursorOf(row: Pick<NoteRow, 'at' | 'id'>): string {
  return encodeCursor([row.at, row.id]);
}

function keyOfCursor(cursor: string): NoteKey {
  return decodeCursor(cursor, ([at, id, ...rest]) =>
    typeof at === 'string' && typeof id === 'string' && rest.length === 0 ? { at, id } : undefined,
  );
}

/** One page of an entity's notes, newest first, and the cursor of the next (older) page. */
export async function notesPage(
  db: Db,
  table: NotesTable,
  entityId: string,
  query: NoteListQuery,
): Promise<{ notes: Note[]; nextCursor: string | null }> {
  const before = query.cursor === undefined ? undefined : keyOfCursor(query.cursor);
  // One more than asked tells whether an older page exists.
  const rows = await notesRepository(db, table).page(entityId, query.limit + 1, before);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const names = await accountsRepository(db).displayNames(page.map((row) => row.author));
  return {
    notes: page.map((row) => ({ ...noteOf(row), authorName: names.get(row.author) ?? null })),
    nextCursor: rows.length > query.limit && last ? cursorOf(last) : null,
  };
}

/** Adds a note; `beforeCommit` runs in the same transaction (the audit event). */
export async function addNote(
  db: Db,
  table: NotesTable,
  note: { entityId: string; author: string; at: string; text: string },
  beforeCommit: (transaction: Db, note: Note) => Promise<void>,
): Promise<Note> {
  const row: NoteRow = {
    id: crypto.randomUUID(),
    entity_id: note.entityId,
    author: note.author,
    at: note.at,
    text: note.text,
  };
  return db.transaction().execute(async (transaction) => {
    await notesRepository(transaction, table).insert(row);
    await beforeCommit(transaction, noteOf(row));
    const names = await accountsRepository(transaction).displayNames([row.author]);
    return { ...noteOf(row), authorName: names.get(row.author) ?? null };
  });
}
