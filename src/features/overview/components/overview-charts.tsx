import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { Stats } from '../../../../contract/stats.ts';

/** Colours that keep their meaning and contrast in both schemes (Mantine's theme variables). */
const STATUS_COLORS: Record<keyof Stats['byStatus'], string> = {
  New: 'blue.6',
  Pending: 'yellow.6',
  Review: 'indigo.6',
  Escalated: 'orange.6',
  Accepted: 'teal.6',
  Rejected: 'red.6',
  Expired: 'gray.6',
};

/** The charts of the overview, loaded on demand so no other page's bundle carries recharts. */
export default function OverviewCharts({ stats }: { stats: Stats }) {
  const statusData = Object.entries(stats.byStatus)
    .filter(([, value]) => value > 0)
    .map(([name, value]) => ({
      name,
      value,
      color: STATUS_COLORS[name as keyof Stats['byStatus']],
    }));
  const dueData = [
    { window: 'Overdue', entities: stats.due.overdue },
    { window: 'Next 7 days', entities: stats.due.due7 },
    { window: 'Next 30 days', entities: stats.due.due30 },
    { window: 'Undated', entities: stats.due.undated },
  ];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Paper withBorder p="md" aria-labelledby="chart-status">
        <Title order={2} size="h4" id="chart-status" mb="sm">
          Entities by KYC status
        </Title>
        <DonutChart
          data={statusData}
          withLabels
          withTooltip
          labelsType="value"
          chartLabel={stats.total}
          size={180}
          thickness={28}
          mx="auto"
          aria-hidden
        />
        <Text size="xs" c="dimmed" ta="center" mt="xs">
          The numbers are in the list beside it, each a link.
        </Text>
      </Paper>
      <Paper withBorder p="md" aria-labelledby="chart-due">
        <Title order={2} size="h4" id="chart-due" mb="sm">
          Reviews by due window
        </Title>
        <BarChart
          h={220}
          data={dueData}
          dataKey="window"
          series={[{ name: 'entities', label: 'Entities', color: 'indigo.6' }]}
          withBarValueLabel
          aria-hidden
        />
      </Paper>
    </SimpleGrid>
  );
}
