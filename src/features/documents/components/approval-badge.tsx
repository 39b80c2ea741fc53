import { Badge } from '@mantine/core';
import { IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';

/** Approved or not, in words: the colour and icon only help scanning. */
export function ApprovalBadge({ approved }: { approved: boolean }) {
  return approved ? (
    <Badge
      color="green"
      variant="light"
      tt="none"
      leftSection={<IconCircleCheck size={12} aria-hidden />}
    >
      Approved
    </Badge>
  ) : (
    <Badge
      color="gray"
      variant="outline"
      tt="none"
      leftSection={<IconClockHour4 size={12} aria-hidden />}
    >
      Not approved
    </Badge>
  );
}
