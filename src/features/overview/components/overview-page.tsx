import {
  Anchor,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { Stats } from '../../../../contract/stats.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { statsQueries } from '../api/stats-queries.ts';

const OverviewCharts = lazy(() => import('./overview-charts.tsx'));

const count = (value: number) => value.toLocaleString('en-GB');

/** The queue's address for one window, everyone's entities. */
const queueLink = (due: string) =>
  `${paths.reviews}?${new URLSearchParams({ due, assignee: 'all' }).toString()}`;

/** The Entities list filtered as the browse page reads its address (decisions.md, "Browse"). */
const entitiesLink = (filter: Record<string, string>) =>
  `${paths.entities}?${new URLSearchParams(filter).toString()}`;

function CountCard({
  label,
  value,
  to,
  tone,
}: {
  label: string;
  value: number;
  to: string;
  tone?: 'alert';
}) {
  return (
    <UnstyledButton component={Link} to={to} aria-label={`${label}: ${count(value)}`}>
      <Paper withBorder p="md" h="100%">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text
          fz={30}
          fw={700}
          c={tone === 'alert' && value > 0 ? 'var(--mantine-color-error)' : undefined}
        >
          {count(value)}
        </Text>
      </Paper>
    </UnstyledButton>
  );
}

function Breakdown({
  title,
  rows,
}: {
  title: string;
  rows: { label: string; value: number; to: string }[];
}) {
  return (
    <Paper withBorder p="md">
      <Table verticalSpacing={4} captionSide="top">
        <Table.Caption style={{ textAlign: 'left' }}>
          <Title order={2} size="h4">
            {title}
          </Title>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <VisuallyHidden>Which</VisuallyHidden>
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Entities
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th scope="row" fw={400}>
                {row.label}
              </Table.Th>
              <Table.Td ta="right">
                <Anchor
                  component={Link}
                  to={row.to}
                  aria-label={`${row.label}: ${count(row.value)}`}
                >
                  {count(row.value)}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function OverviewContent({ stats, confirms }: { stats: Stats; confirms: boolean }) {
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
        {/* The list, not the queue's All: the count includes undated entities, which All leaves out. */}
        <CountCard
          label="Assigned to me"
          value={stats.assignedToMe}
          to={entitiesLink({ assignee: 'me', sort: 'nextReview' })}
        />
        {confirms ? (
          <CountCard
            label="Waiting for my confirmation"
            value={stats.pendingConfirmations}
            to={paths.waiting}
            tone="alert"
          />
        ) : null}
        <CountCard
          label="Overdue"
          value={stats.due.overdue}
          to={queueLink('overdue')}
          tone="alert"
        />
        <CountCard label="Due in 7 days" value={stats.due.due7} to={queueLink('7d')} />
        <CountCard label="Due in 30 days" value={stats.due.due30} to={queueLink('30d')} />
        <CountCard label="No review date" value={stats.due.undated} to={queueLink('undated')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        <Breakdown
          title="By KYC status"
          rows={Object.entries(stats.byStatus).map(([status, value]) => ({
            label: status,
            value,
            to: entitiesLink({ kycStatus: status }),
          }))}
        />
        <Breakdown
          title="By risk level"
          rows={Object.entries(stats.byRisk).map(([level, value]) => ({
            label: level,
            value,
            to: entitiesLink({ riskLevel: level }),
          }))}
        />
        <Breakdown
          title="By type"
          rows={[
            {
              label: 'Legal entities',
              value: stats.byType.legalEntities,
              to: entitiesLink({ type: 'legal-entities' }),
            },
            {
              label: 'Natural persons',
              value: stats.byType.naturalPersons,
              to: entitiesLink({ type: 'natural-persons' }),
            },
            { label: 'All', value: stats.total, to: paths.entities },
          ]}
        />
      </SimpleGrid>
      <Suspense fallback={<Skeleton height={260} aria-hidden />}>
        <OverviewCharts stats={stats} />
      </Suspense>
    </Stack>
  );
}

/** Home: the portfolio's counts, each a link to the list or queue it counts. */
export function OverviewPage({ confirms }: { confirms: boolean }) {
  useDocumentTitle('Overview');
  const stats = useQuery(statsQueries.current());
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Overview</Title>
          <Text c="dimmed" size="sm">
            Every entity counted; due windows in UTC
            {stats.data ? `, today ${formatDate(stats.data.today)}` : ''}.
          </Text>
        </div>
      </Group>
      {stats.isError ? (
        <ErrorState
          title="The counts could not be loaded"
          message={stats.error.message}
          onRetry={() => void stats.refetch()}
          retrying={stats.isFetching}
        />
      ) : stats.data ? (
        <OverviewContent stats={stats.data} confirms={confirms} />
      ) : (
        <Stack gap="xs">
          <VisuallyHidden role="status">Loading the counts…</VisuallyHidden>
          <Skeleton height={90} />
          <Skeleton height={200} />
        </Stack>
      )}
    </Stack>
  );
}
