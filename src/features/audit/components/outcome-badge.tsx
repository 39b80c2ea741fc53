import { Badge } from '@mantine/core';
import { outcomeLook } from '../audit-event-labels.ts';

/** Nothing for a success; "Denied" or "Failed" otherwise. */
export function OutcomeBadge({ outcome }: { outcome: string }) {
  const look = outcomeLook(outcome);
  if (!look) return null;
  return (
    <Badge color={look.color} variant="light" tt="none">
      {look.label}
    </Badge>
  );
}
