import { Group, Paper, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A titled block of a detail page; the heading names the region for screen readers. */
export function DetailSection({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="center" mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}
