import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { NoteTable } from '../db/schema.ts';

export type NoteRow = Selectable<NoteTable>;

/** `notes` in embedded mode; `gateway_notes` in gateway mode, whose entities live upstream. */
export type NotesTable = 'notes' | 'gateway_notes';

/** Where a page of newest-first notes continues: strictly older than this note. */
export interface NoteKey {
  at: string;
  id: string;
}

/** The only place with SQL for notes, in either mode's table. */
export function notesRepository(db: Db, table: NotesTable) {
  return {
    async insert(row: NoteRow): Promise<void> {
      await db.insertInto(table).values(row).execute();
    },

    /** Newest first by (at, id); `limit` rows at most, after `before` when given. */
    page(entityId: string, limit: number, before: NoteKey | undefined): Promise<NoteRow[]> {
      let query = db.selectFrom(table).selectAll().where('entity_id', '=', entityId);
      if (before) {
        query = query.where((eb) =>
          eb.or([
            eb('at', '<', before.at),
            eb.and([eb('at', '=', before.at), eb('id', '<', before.id)]),
          ]),
        );
      }
      return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
  };
}
