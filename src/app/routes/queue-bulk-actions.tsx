import {
  Alert,
  Button,
  Group,
  List,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  ThemeIcon,
} from '@mantine/core';
import { IconCheck, IconNote, IconUserShare, IconX } from '@tabler/icons-react';
import { useState, type SyntheticEvent } from 'react';
import { MAX_NOTE_LENGTH } from '../../../contract/notes.ts';
import type { ReviewItem } from '../../../contract/reviews.ts';
import { assignEntity } from '../../features/assignment/api/assignment-mutations.ts';
import { ReviewerSelect } from '../../features/assignment/components/reviewer-select.tsx';
import { forEachWithConcurrency } from '../../features/entities/api/for-each-with-concurrency.ts';
import { addNote } from '../../features/notes/api/note-queries.ts';

/** Requests in flight at once: the server's per-entity checks and audit stay one call each. */
export const BULK_CONCURRENCY = 4;

type BulkKind = 'assign' | 'note';

/** What happened to one selected entity. */
export interface BulkOutcome {
  item: ReviewItem;
  error?: string;
}

const DONE_WORDS: Record<BulkKind, string> = { assign: 'Assigned', note: 'Note added' };

/**
 * Runs one per-entity call for every selected row, `BULK_CONCURRENCY` at a time, and keeps each
 * row's outcome in the order shown: a refusal on one row stops nothing else.
 */
export async function runBulk(
  items: readonly ReviewItem[],
  call: (item: ReviewItem) => Promise<unknown>,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = items.map((item) => ({ item }));
  await forEachWithConcurrency(items, BULK_CONCURRENCY, async (item, index) => {
    try {
      await call(item);
    } catch (error) {
      outcomes[index] = {
        item,
        error: error instanceof Error ? error.message : 'Something went wrong.',
      };
    }
  });
  return outcomes;
}

/** The bar over the queue while rows are selected: assign them all, or add one note to each. */
export function QueueBulkActions({
  selected,
  select,
  onChanged,
}: {
  selected: ReviewItem[];
  /** Sets the queue's selection to these entity ids. */
  select: (ids: string[]) => void;
  /** Refreshes what the calls changed (the queue, entities, their Activity). */
  onChanged: () => Promise<unknown>;
}) {
  // The rows a dialog acts on are fixed when it opens; the refused ones stay selected after it.
  const [open, setOpen] = useState<{ kind: BulkKind; items: ReviewItem[] } | null>(null);
  const [refused, setRefused] = useState<string[] | null>(null);
  const count = selected.length;
  return (
    <Paper withBorder p="sm" role="region" aria-label="Bulk actions">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={500} role="status">
          {count === 1 ? '1 entity selected' : `${count} entities selected`}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            leftSection={<IconUserShare size={16} aria-hidden />}
            onClick={() => setOpen({ kind: 'assign', items: selected })}
          >
            Assign selected to…
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconNote size={16} aria-hidden />}
            onClick={() => setOpen({ kind: 'note', items: selected })}
          >
            Add a note to selected…
          </Button>
          <Button size="xs" variant="subtle" color="gray" onClick={() => select([])}>
            Clear selection
          </Button>
        </Group>
      </Group>
      {open ? (
        <BulkDialog
          kind={open.kind}
          items={open.items}
          onClose={() => {
            setOpen(null);
            if (refused !== null) {
              select(refused);
              // Refreshed once the outcome is read: rows assigned away leave the window, and with
              // the last selected row this panel and its dialog would go too.
              void onChanged();
            }
            setRefused(null);
          }}
          onFinished={(outcomes) => {
            // Only the refused rows stay selected, so they can be tried again.
            setRefused(
              outcomes.filter((outcome) => outcome.error).map((outcome) => outcome.item.entityId),
            );
          }}
        />
      ) : null}
    </Paper>
  );
}

function BulkDialog({
  kind,
  items,
  onClose,
  onFinished,
}: {
  kind: BulkKind;
  items: ReviewItem[];
  onClose: () => void;
  onFinished: (outcomes: BulkOutcome[]) => void;
}) {
  const [reviewer, setReviewer] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);
  const count = items.length;
  const noun = count === 1 ? '1 entity' : `${count} entities`;

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = note.trim();
    if (kind === 'assign' && !reviewer) {
      setError('Choose a reviewer.');
      return;
    }
    if (kind === 'note' && text === '') {
      setError('Write a note first.');
      return;
    }
    setRunning(true);
    const done = await runBulk(items, (item) =>
      kind === 'assign' ? assignEntity(item.entityId, reviewer) : addNote(item.entityId, text),
    );
    setRunning(false);
    setOutcomes(done);
    onFinished(done);
  }

  const title = kind === 'assign' ? `Assign ${noun}` : `Add a note to ${noun}`;
  if (outcomes) {
    const failed = outcomes.filter((outcome) => outcome.error).length;
    return (
      <Modal opened onClose={onClose} title={title}>
        <Stack gap="sm">
          <Alert color={failed === 0 ? 'green' : 'orange'} role="status">
            {failed === 0
              ? `${DONE_WORDS[kind]}: all ${count}.`
              : `${DONE_WORDS[kind]}: ${count - failed} of ${count}. ${failed} refused, still selected.`}
          </Alert>
          <List spacing="xs" size="sm" aria-label="Outcome per entity" listStyleType="none">
            {outcomes.map(({ item, error: refusal }) => (
              <List.Item
                key={item.entityId}
                icon={
                  <ThemeIcon size={20} radius="xl" color={refusal ? 'red' : 'teal'}>
                    {refusal ? (
                      <IconX size={14} aria-hidden />
                    ) : (
                      <IconCheck size={14} aria-hidden />
                    )}
                  </ThemeIcon>
                }
              >
                <Text span fw={500} size="sm">
                  {item.name || item.entityId}
                </Text>
                <Text span size="sm" c={refusal ? 'var(--mantine-color-error)' : 'dimmed'}>
                  {' — '}
                  {refusal ? `Refused: ${refusal}` : DONE_WORDS[kind]}
                </Text>
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }
  return (
    <Modal opened onClose={running ? () => undefined : onClose} title={title}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            One request per entity, each checked and recorded on its own: a refusal on one does not
            stop the others.
          </Text>
          {kind === 'assign' ? (
            <ReviewerSelect
              autoFocus
              value={reviewer}
              onChange={(username) => {
                setReviewer(username);
                setError(null);
              }}
              error={error}
            />
          ) : (
            <Textarea
              label="Note"
              required
              data-autofocus
              rows={3}
              maxLength={MAX_NOTE_LENGTH}
              value={note}
              onChange={(event) => {
                setNote(event.currentTarget.value);
                setError(null);
              }}
              error={error}
            />
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={running}>
              Cancel
            </Button>
            <Button type="submit" loading={running}>
              {kind === 'assign' ? `Assign ${noun}` : `Add to ${noun}`}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
