import { EmptyState as MantineEmptyState } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  /** Defaults to an inbox icon. */
  icon?: ReactNode;
  /** A button or link that gets the reviewer going again. */
  action?: ReactNode;
}

/** Shown when a list or search has nothing to show, saying what to do next. */
export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return (
    <MantineEmptyState
      py="xl"
      title={title}
      description={description}
      icon={icon ?? <IconInbox size={28} aria-hidden />}
      withIndicatorBackground
    >
      {action ? <MantineEmptyState.Actions>{action}</MantineEmptyState.Actions> : null}
    </MantineEmptyState>
  );
}
