import { Badge, type MantineColor } from '@mantine/core';
import type { KycStatus } from '../../contract/entities.ts';

const STATUS_COLORS: Record<KycStatus, MantineColor> = {
  New: 'blue',
  Pending: 'yellow',
  Review: 'cyan',
  Escalated: 'orange',
  Accepted: 'green',
  Rejected: 'red',
  Expired: 'gray',
};

function colorOf(status: string): MantineColor {
  return (STATUS_COLORS as Record<string, MantineColor | undefined>)[status] ?? 'gray';
}

export interface StatusBadgeProps {
  /** A kycStatus or verificationStatus; unknown values show as they are, in grey. */
  status: string | null | undefined;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}

/** KYC or verification status: the word itself carries the meaning, the colour only helps scanning. */
export function StatusBadge({ status, size = 'sm' }: StatusBadgeProps) {
  if (!status) {
    return (
      <Badge variant="outline" color="gray" size={size} tt="none">
        No status
      </Badge>
    );
  }
  return (
    // Never cut to "Acc…": a narrow table column widens for the word instead (the queue on a phone).
    <Badge
      variant="light"
      color={colorOf(status)}
      size={size}
      tt="none"
      style={{ minWidth: 'max-content' }}
    >
      {status}
    </Badge>
  );
}
