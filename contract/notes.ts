import { z } from 'zod';
import { envelopeSchema } from './common.ts';
import { pagedEnvelopeSchema, pageQuerySchema } from './paging.ts';

export const MAX_NOTE_LENGTH = 5000;

/** A note on an entity; `at` is ISO 8601 with milliseconds, UTC. */
export const noteSchema = z.object({
  id: z.string(),
  author: z.string(),
  /** The author's display name when this server holds the account (null in gateway mode or once deleted). */
  authorName: z.string().nullish(),
  at: z.string(),
  text: z.string(),
});
export type Note = z.infer<typeof noteSchema>;

export const newNoteSchema = z.strictObject({
  text: z
    .string({ error: 'Write the note as text.' })
    .trim()
    .min(1, 'Write a note first.')
    .max(MAX_NOTE_LENGTH, `A note can be at most ${MAX_NOTE_LENGTH} characters.`),
});
export type NewNote = z.infer<typeof newNoteSchema>;

/** Notes come newest first: the first page is the latest conversation, `cursor` reaches older ones. */
export const noteListQuerySchema = z.strictObject(pageQuerySchema(50, 200));
export type NoteListQuery = z.infer<typeof noteListQuerySchema>;

export const notePageSchema = pagedEnvelopeSchema(noteSchema);
export type NotePage = z.infer<typeof notePageSchema>;

export const noteResponseSchema = envelopeSchema(noteSchema);
