import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertCircle, IconMessagePlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { newNoteSchema, type Note } from '../../../../contract/notes.ts';
import { formatAccount, formatDate } from '../../../lib/format.ts';
import { noteQueries, useAddNote } from '../api/note-queries.ts';

export interface NotesThreadProps {
  entityId: string;
  /** An account that may not write (an auditor) reads the notes without a composer. */
  readOnly?: boolean;
  /** After a note is saved, for what else shows it (the entity's Activity). */
  onAdded?: () => unknown;
}

/** An entity's notes, newest first, with a composer on top (Ctrl+Enter or Cmd+Enter sends). */
export function NotesThread({ entityId, readOnly = false, onAdded }: NotesThreadProps) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} size="h4" id={headingId}>
          Notes
        </Title>
        {!readOnly && <Composer entityId={entityId} onAdded={onAdded} />}
        <Thread entityId={entityId} readOnly={readOnly} />
      </Stack>
    </Paper>
  );
}

function Composer({
  entityId,
  onAdded,
}: {
  entityId: string;
  onAdded?: (() => unknown) | undefined;
}) {
  const addNote = useAddNote(entityId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Ctrl+Enter held down repeats: one note per press.
  const sending = useRef(false);

  async function send() {
    if (sending.current) return;
    const parsed = newNoteSchema.safeParse({ text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write a note first.');
      return;
    }
    sending.current = true;
    setError(null);
    try {
      await addNote.mutateAsync(parsed.data.text);
      setText('');
      void onAdded?.();
    } catch (failure) {
      // The text stays in the box, so nothing typed is lost.
      setError(failure instanceof Error ? failure.message : 'The note was not saved. Try again.');
    } finally {
      sending.current = false;
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Add a note"
          description="Visible to every reviewer. Ctrl+Enter (⌘+Enter on a Mac) sends."
          rows={2}
          resize="vertical"
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          error={error && !addNote.isError ? error : undefined}
          readOnly={addNote.isPending}
        />
        {addNote.isError && error && (
          <Alert
            color="red"
            icon={<IconAlertCircle size={18} aria-hidden />}
            title="The note was not saved"
          >
            {error} Your text is still in the box; send it again.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            type="submit"
            size="sm"
            leftSection={<IconMessagePlus size={16} aria-hidden />}
            loading={addNote.isPending}
          >
            Add note
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Thread({ entityId, readOnly }: { entityId: string; readOnly: boolean }) {
  const thread = useInfiniteQuery(noteQueries.thread(entityId));

  if (thread.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading notes">
        <Skeleton h={48} />
        <Skeleton h={48} />
      </Stack>
    );
  }
  if (thread.isError) {
    return (
      <ErrorState
        title="Notes could not be loaded"
        message={thread.error.message}
        onRetry={() => void thread.refetch()}
        retrying={thread.isFetching}
      />
    );
  }
  const notes = thread.data.pages.flatMap((page) => page.data);
  return (
    <Stack gap="xs">
      {notes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {readOnly ? 'No notes yet.' : 'No notes yet. Leave one for the next reviewer.'}
        </Text>
      ) : (
        <Stack
          component="ol"
          gap="xs"
          p={0}
          m={0}
          aria-label="Notes, newest first"
          style={{ listStyle: 'none' }}
        >
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </Stack>
      )}
      {thread.hasNextPage && (
        <Group>
          <Button
            variant="subtle"
            size="xs"
            loading={thread.isFetchingNextPage}
            onClick={() => void thread.fetchNextPage()}
          >
            Show older notes
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function NoteItem({ note }: { note: Note }) {
  return (
    <Paper component="li" p="sm" bg="var(--kyc-color-surface-muted)" radius="sm">
      <Group gap="xs" mb={4} wrap="wrap">
        <Text size="sm" fw={600}>
          {formatAccount(note.author, note.authorName)}
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={note.at}>
          {formatDate(note.at)}
        </Text>
      </Group>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {note.text}
      </Text>
    </Paper>
  );
}
