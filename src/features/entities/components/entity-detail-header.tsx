import { Anchor, Badge, Box, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { AfterFirstPaint } from '../../../components/after-first-paint.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { KycMetaData } from '../../../../contract/entities.ts';
import { RiskLevelBadge } from './risk-level-badge.tsx';

function Identifier({
  label,
  copyLabel,
  value,
}: {
  label: string;
  copyLabel: string;
  value: string;
}) {
  return (
    <Group gap={6} wrap="nowrap">
      {/* The UUID wraps on a phone; the label stays on one line beside it. */}
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Text>
      <Code>{value}</Code>
      <CopyButton value={value} label={copyLabel} />
    </Group>
  );
}

export function EntityDetailHeader({
  id,
  title,
  typeLabel,
  kyc,
  actions,
}: {
  id: string;
  title: string;
  typeLabel: string;
  kyc: KycMetaData | undefined;
  actions?: ReactNode;
}) {
  return (
    <Stack gap="xs">
      <Anchor component={Link} to={paths.entities} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          Entities
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={6}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          <Group gap="xs">
            <Badge variant="default" tt="none">
              {typeLabel}
            </Badge>
            <StatusBadge status={kyc?.kycStatus} />
            <RiskLevelBadge level={kyc?.riskLevel} />
          </Group>
        </Stack>
        {actions}
      </Group>
      <Group gap="lg">
        <Identifier label="Entity ID" copyLabel="entity ID" value={id} />
        {kyc?.externalID ? (
          <Identifier label="External ID" copyLabel="external ID" value={kyc.externalID} />
        ) : null}
      </Group>
    </Stack>
  );
}

/**
 * What a detail page shows below its header (review panels, sections), rendered just after the
 * header's paint so that a phone's first paint waits for less. The placeholder keeps what follows
 * the page (its Activity) below the screen until then, so nothing in view moves.
 */
export function BelowEntityDetailHeader({ children }: { children: ReactNode }) {
  return <AfterFirstPaint placeholder={<Box mih="100vh" />}>{children}</AfterFirstPaint>;
}
