import { Badge, type MantineColor } from '@mantine/core';

const RISK_COLORS: Record<string, MantineColor | undefined> = {
  Low: 'teal',
  Medium: 'yellow',
  High: 'red',
};

/** "High risk" in words; a level this console does not know (the real service's `0`) as it came. */
export function RiskLevelBadge({ level }: { level: string | null | undefined }) {
  if (!level) return null;
  const color = RISK_COLORS[level];
  return (
    <Badge variant="outline" color={color ?? 'gray'} tt="none">
      {color ? `${level} risk` : `Risk level ${level}`}
    </Badge>
  );
}
