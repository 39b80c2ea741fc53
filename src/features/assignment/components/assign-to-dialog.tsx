import { Button, Group, Modal, Stack } from '@mantine/core';
import { useState, type SyntheticEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useAssignEntity } from '../api/assignment-mutations.ts';
import { ReviewerSelect } from './reviewer-select.tsx';

/** Picks a reviewer from the server's list; the server still says when the choice is refused. */
export function AssignToDialog({
  opened,
  onClose,
  entityId,
  entityName,
  onAssigned,
}: {
  opened: boolean;
  onClose: () => void;
  entityId: string;
  entityName: string;
  onAssigned: () => Promise<unknown>;
}) {
  const assign = useAssignEntity(onAssigned);
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name) {
      setError('Choose a reviewer.');
      return;
    }
    try {
      await assign.mutateAsync({ entityId, username: name });
      setName(null);
      onClose();
    } catch (failure) {
      const fieldError =
        failure instanceof ApiError
          ? failure.fieldErrors.find((field) => field.field === 'username')?.message
          : undefined;
      setError(fieldError ?? (failure instanceof Error ? failure.message : 'Not assigned.'));
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={`Assign ${entityName}`}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="sm">
          <ReviewerSelect
            autoFocus
            value={name}
            onChange={(username) => {
              setName(username);
              setError(null);
            }}
            error={error}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={assign.isPending}>
              Assign
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
