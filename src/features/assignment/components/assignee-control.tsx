import { ActionIcon, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconUserCheck, IconUserMinus, IconUserShare } from '@tabler/icons-react';
import { lazy } from 'react';
import { DialogOnDemand, useDialogOnDemand } from '../../../components/dialog-on-demand.tsx';
import { useAssignEntity } from '../api/assignment-mutations.ts';

// The reviewer picker (a select and the reviewers' list) loads when it is first opened.
const AssignToDialog = lazy(() =>
  import('./assign-to-dialog.tsx').then((module) => ({ default: module.AssignToDialog })),
);

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
  const dialog = useDialogOnDemand();
  const mine = assignedUser === username;
  const set = (to: string | null) =>
    assign.mutateAsync({ entityId, username: to }).catch(notifyFailure);

  const dialogElement = (
    <DialogOnDemand dialog={dialog}>
      <AssignToDialog
        opened={dialog.opened}
        onClose={dialog.close}
        entityId={entityId}
        entityName={entityName}
        onAssigned={onAssigned}
      />
    </DialogOnDemand>
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
