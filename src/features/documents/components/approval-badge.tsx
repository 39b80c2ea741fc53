import { Badge } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconClockHour4, IconHelpCircle } from '@tabler/icons-react';

/** Approved or not, in words: the colour and icon only help scanning. */
export function ApprovalBadge({
  approved,
  rejected = false,
}: {
  approved: boolean | null | undefined;
  /** A reviewer rejected it (not merely "not approved yet"). */
  rejected?: boolean;
}) {
  if (rejected) {
    return (
      <Badge
        color="red"
        variant="light"
        tt="none"
        leftSection={<IconCircleX size={12} aria-hidden />}
      >
        Rejected
      </Badge>
    );
  }
  // A service that does not say is not read as "not approved".
  if (approved === null || approved === undefined) {
    return (
      <Badge
        color="gray"
        variant="outline"
        tt="none"
        leftSection={<IconHelpCircle size={12} aria-hidden />}
      >
        Approval not stated
      </Badge>
    );
  }
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
