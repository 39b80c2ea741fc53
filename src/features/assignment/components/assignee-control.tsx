import { ActionIcon, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDots, IconUserCheck, IconUserMinus, IconUserShare } from '@tabler/icons-react';
import { useState, type SyntheticEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useAssignEntity } from '../api/assignment-mutations.ts';
import { ReviewerSelect } from './reviewer-select.tsx';

export interface AssigneeControlProps {
  entityId: string;
  /** What the entity is called, for the menu's accessible name in a list. */
  entityName: string;
  assignedUser: string | null | undefined;
  /** The signed-in reviewer. */
  username: string;
  onAssigned: () => Promise<unknown>;
  /** `page`: who and the buttons, on the entity page; `row`: one menu, in a table row. */
  variant: 'page' | 'row';
  /** An account that may not assign (an auditor): who, and nothing offered. */
  readOnly?: boolean;
}

function notifyFailure(error: unknown) {
  notifications.show({
    closeButtonProps: { 'aria-label': 'Dismiss notification' },
    color: 'red',
    title: 'Not assigned',
    message: error instanceof Error ? error.message : 'Something went wrong. Try again.',
  });
}

/** "Assign to me", "Assign to…" (a reviewer's username) and "Unassign" for one entity. */
export function AssigneeControl({
  entityId,
  entityName,
  assignedUser,
  username,
  onAssigned,
  variant,
  readOnly = false,
}: AssigneeControlProps) {
  const assign = useAssignEntity(onAssigned);
  const [opened, dialog] = useDisclosure(false);
  const mine = assignedUser === username;
  const set = (to: string | null) =>
    assign.mutateAsync({ entityId, username: to }).catch(notifyFailure);

  const dialogElement = (
    <AssignToDialog
      opened={opened}
      onClose={dialog.close}
      entityId={entityId}
      entityName={entityName}
      onAssigned={onAssigned}
    />
  );

  if (variant === 'row') {
    return (
      <>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Assignment of ${entityName}`}
              loading={assign.isPending}
            >
              <IconDots size={18} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {mine ? null : (
              <Menu.Item
                leftSection={<IconUserCheck size={16} aria-hidden />}
                onClick={() => void set(username)}
              >
                Assign to me
              </Menu.Item>
            )}
            <Menu.Item leftSection={<IconUserShare size={16} aria-hidden />} onClick={dialog.open}>
              Assign to…
            </Menu.Item>
            {assignedUser ? (
              <Menu.Item
                leftSection={<IconUserMinus size={16} aria-hidden />}
                onClick={() => void set(null)}
              >
                Unassign
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
        {dialogElement}
      </>
    );
  }

  return (
    <Group gap="sm" wrap="wrap" role="group" aria-label="Assignment">
      <Text size="sm">
        Assigned to{' '}
        <Text span fw={600}>
          {mine ? 'you' : (assignedUser ?? 'nobody')}
        </Text>
      </Text>
      {readOnly ? null : mine ? null : (
        <Button
          size="xs"
          leftSection={<IconUserCheck size={16} aria-hidden />}
          loading={assign.isPending && assign.variables.username === username}
          onClick={() => void set(username)}
        >
          Assign to me
        </Button>
      )}
      {readOnly ? null : (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconUserShare size={16} aria-hidden />}
          onClick={dialog.open}
        >
          Assign to…
        </Button>
      )}
      {assignedUser && !readOnly ? (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconUserMinus size={16} aria-hidden />}
          loading={assign.isPending && assign.variables.username === null}
          onClick={() => void set(null)}
        >
          Unassign
        </Button>
      ) : null}
      {dialogElement}
    </Group>
  );
}

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
