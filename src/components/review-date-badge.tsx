import { Badge, Group, Text } from '@mantine/core';
import { daysUntil, formatDate } from '../lib/format.ts';

/** Days ahead within which a review counts as due soon. */
export const DUE_SOON_DAYS = 30;

export type ReviewUrgency = 'overdue' | 'due-soon' | 'scheduled';

export function reviewUrgency(date: string, today: Date = new Date()): ReviewUrgency {
  const days = daysUntil(date, today);
  if (days < 0) return 'overdue';
  if (days <= DUE_SOON_DAYS) return 'due-soon';
  return 'scheduled';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export interface ReviewDateBadgeProps {
  /** `YYYY-MM-DD`; null or undefined shows a dash. */
  date: string | null | undefined;
  /** Injected by tests; defaults to now. */
  today?: Date;
}

/** A next-review date with an "Overdue" or "Due in N days" badge, so urgency is read, not only seen. */
export function ReviewDateBadge({ date, today }: ReviewDateBadgeProps) {
  if (!date) return <Text size="sm">—</Text>;
  const now = today ?? new Date();
  const urgency = reviewUrgency(date, now);
  const days = daysUntil(date, now);
  return (
    // Wraps where the cell is narrow (the phone's Reviews): the badge drops below the date rather
    // than running over the next column's Status badge.
    <Group gap={6} wrap="wrap">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDate(date)}
      </Text>
      {urgency === 'overdue' && (
        <Badge color="red" variant="filled" size="sm" tt="none" style={{ flexShrink: 0 }}>
          Overdue by {plural(-days, 'day')}
        </Badge>
      )}
      {urgency === 'due-soon' && (
        <Badge color="orange" variant="light" size="sm" tt="none" style={{ flexShrink: 0 }}>
          {days === 0 ? 'Due today' : `Due in ${plural(days, 'day')}`}
        </Badge>
      )}
    </Group>
  );
}
