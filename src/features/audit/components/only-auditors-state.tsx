import { Button, EmptyState } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';

/** The global log's 403, said plainly, with where a reviewer can see activity instead. */
export function OnlyAuditorsState() {
  return (
    <EmptyState py="xl" withIndicatorBackground icon={<IconLock size={28} aria-hidden />}>
      <EmptyState.Title order={2}>Only auditors can see the audit log</EmptyState.Title>
      <EmptyState.Description>
        Your account has the reviewer role. Each entity&apos;s own activity is on its page; ask an
        administrator for the auditor role to see every event.
      </EmptyState.Description>
      <EmptyState.Actions>
        <Button
          component={Link}
          to={paths.entities}
          variant="light"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          Back to entities
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
