import { Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { Verification } from '../../../../contract/entities.ts';
import { formatDate } from '../../../lib/format.ts';
import { DetailFields } from './detail-fields.tsx';
import { DetailSection } from './detail-section.tsx';

/** Issues have no fixed shape on the wire: show text as it is and objects by their likeliest field. */
export function describeIssue(issue: unknown): string {
  if (typeof issue === 'string') return issue;
  if (typeof issue === 'number' || typeof issue === 'boolean') return String(issue);
  if (issue && typeof issue === 'object') {
    const record = issue as Record<string, unknown>;
    for (const key of ['description', 'message', 'issue', 'title', 'name']) {
      const value = record[key];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return JSON.stringify(issue);
}

function VerificationCard({ verification }: { verification: Verification }) {
  const issues = verification.verificationIssues;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="article"
      aria-label={`Verification of ${formatDate(verification.verificationDate)}`}
    >
      <Group gap="xs" mb="sm">
        <StatusBadge status={verification.verificationStatus} />
        {verification.legalEntityVerification ? (
          <Badge variant="light" color="gray" tt="none">
            Legal entity verification
          </Badge>
        ) : null}
      </Group>
      <DetailFields
        fields={[
          { label: 'Verification date', value: formatDate(verification.verificationDate) },
          { label: 'Source', value: verification.verificationSource },
          { label: 'Next review', value: <ReviewDateBadge date={verification.nextReviewDate} /> },
          { label: 'Business statement', value: verification.businessStatement },
        ]}
      />
      <Text size="xs" c="dimmed" fw={500} tt="uppercase" mt="sm">
        Issues
      </Text>
      {issues.length === 0 ? (
        <Text size="sm">No issues</Text>
      ) : (
        <List size="sm" spacing={2} aria-label="Issues">
          {issues.map((issue, index) => {
            const text = describeIssue(issue);
            return <List.Item key={`${index}:${text}`}>{text}</List.Item>;
          })}
        </List>
      )}
    </Paper>
  );
}

export function VerificationsList({
  verifications,
}: {
  verifications: Verification[] | undefined;
}) {
  // Newest first: the latest verification is the one a reviewer acts on.
  const list = [...(verifications ?? [])].sort((a, b) =>
    (b.verificationDate ?? '').localeCompare(a.verificationDate ?? ''),
  );
  return (
    <DetailSection title="Verifications">
      {list.length === 0 ? (
        <EmptyState
          title="No verifications recorded"
          description="Verifications of this entity will appear here once they are made."
          icon={<IconShieldCheck size={28} aria-hidden />}
        />
      ) : (
        <Stack gap="sm">
          {list.map((verification) => (
            <VerificationCard key={verification.id} verification={verification} />
          ))}
        </Stack>
      )}
    </DetailSection>
  );
}
