import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconId } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type {
  DocumentAuthentication,
  IdentityVerification,
  NaturalPerson,
} from '../../../../contract/entities.ts';
import { formatDate } from '../../../lib/format.ts';
import { DetailFields } from './detail-fields.tsx';
import { DetailSection } from './detail-section.tsx';
import { describeIssue } from './verifications-list.tsx';

/** A yes/no a service may leave unsaid: unsaid shows as a dash, not as "No". */
function yesNo(value: boolean | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value ? 'Yes' : 'No';
}

function Issues({ issues }: { issues: readonly unknown[] }) {
  return (
    <>
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
    </>
  );
}

function CheckCard({
  label,
  badges,
  children,
}: {
  label: string;
  badges: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="md" component="article" aria-label={label}>
      <Group gap="xs" mb="sm">
        {badges}
      </Group>
      {children}
    </Paper>
  );
}

function IdentityVerificationCard({ check }: { check: IdentityVerification }) {
  const verified = yesNo(check.identityVerification);
  return (
    <CheckCard
      label="Identity verification"
      badges={
        <>
          <StatusBadge status={check.identityStatus} />
          {verified ? (
            <Badge variant="light" color="gray" tt="none">
              Identity verified: {verified}
            </Badge>
          ) : null}
        </>
      }
    >
      <DetailFields
        fields={[
          {
            label: 'Data sources',
            value:
              check.dataSources.length > 0 ? check.dataSources.map(describeIssue).join(', ') : null,
          },
          { label: 'Next review', value: <ReviewDateBadge date={check.nextReviewDate} /> },
        ]}
      />
      <Issues issues={check.identityIssues} />
    </CheckCard>
  );
}

function DocumentAuthenticationCard({ check }: { check: DocumentAuthentication }) {
  const authenticated = yesNo(check.docAuth);
  const issuer = [check.docIssuerCountry, check.docIssuerStateProvince].filter(Boolean).join(', ');
  return (
    <CheckCard
      label={`Document authentication${check.docType ? `: ${check.docType}` : ''}`}
      badges={
        <>
          <StatusBadge status={check.docAuthStatus} />
          {authenticated ? (
            <Badge variant="light" color="gray" tt="none">
              Authenticated: {authenticated}
            </Badge>
          ) : null}
        </>
      }
    >
      <DetailFields
        fields={[
          { label: 'Document type', value: check.docType },
          { label: 'Document number', value: check.docNumber },
          { label: 'Issuer', value: issuer },
          {
            label: 'Expiry date',
            value: check.docExpiryDate ? formatDate(check.docExpiryDate) : null,
          },
          {
            label: 'Scan confidence',
            value:
              check.docScanConfidence === null || check.docScanConfidence === undefined
                ? null
                : String(check.docScanConfidence),
          },
          { label: 'Data match', value: yesNo(check.dataMatch) },
          { label: 'Template match', value: yesNo(check.templateMatch) },
        ]}
      />
      <Issues issues={check.docIssues} />
    </CheckCard>
  );
}

/**
 * A natural person's identity verifications and document authentication results, as the real
 * service records them; shown only when the record carries them (this project's records do not).
 */
export function IdentityChecks({ person }: { person: NaturalPerson }) {
  const { identityVerification, documentAuthentication } = person;
  if (!identityVerification && !documentAuthentication) return null;
  const verifications = identityVerification ?? [];
  const authentications = documentAuthentication ?? [];
  return (
    <DetailSection title="Identity checks">
      {verifications.length === 0 && authentications.length === 0 ? (
        <EmptyState
          title="No identity checks recorded"
          description="Identity verifications and document authentication results will appear here."
          icon={<IconId size={28} aria-hidden />}
        />
      ) : (
        <Stack gap="md">
          {verifications.length > 0 ? (
            <Stack gap="sm">
              <Title order={3} size="h5">
                Identity verification
              </Title>
              {verifications.map((check, index) => (
                <IdentityVerificationCard key={check.id ?? index} check={check} />
              ))}
            </Stack>
          ) : null}
          {authentications.length > 0 ? (
            <Stack gap="sm">
              <Title order={3} size="h5">
                Document authentication
              </Title>
              {authentications.map((check, index) => (
                <DocumentAuthenticationCard key={check.id ?? index} check={check} />
              ))}
            </Stack>
          ) : null}
        </Stack>
      )}
    </DetailSection>
  );
}
