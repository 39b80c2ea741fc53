import { Badge, type MantineColor } from '@mantine/core';

const RISK_COLORS: Record<string, MantineColor> = { Low: 'teal', Medium: 'yellow', High: 'red' };

/** "High risk" in words; the colour only helps scanning. */
export function RiskLevelBadge({ level }: { level: string | undefined }) {
  if (!level) return null;
  return (
    <Badge variant="outline" color={RISK_COLORS[level] ?? 'gray'} tt="none">
      {level} risk
    </Badge>
  );
}
