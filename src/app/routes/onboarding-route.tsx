import { Button, EmptyState, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { capabilityQueries } from '../../features/capabilities/api/capabilities-queries.ts';
import { OnboardingPage } from '../../features/onboarding/components/onboarding-page.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { paths } from '../../lib/paths.ts';

/** /legal-entities/new: the onboarding form, or for an auditor a plain "you cannot" with a way on. */
export function OnboardingRoute() {
  useDocumentTitle('Onboard a legal entity');
  const capabilities = useQuery(capabilityQueries.current());
  if (capabilities.isPending) {
    return (
      <Stack gap="md" role="status" aria-busy="true" aria-label="Loading">
        <Skeleton h={36} w="40%" />
        <Skeleton h={260} />
      </Stack>
    );
  }
  // Unknown role (capabilities failed): the form; the server still refuses an auditor's create.
  if (capabilities.data?.account.role === 'auditor') return <AuditorsCannotCreate />;
  return <OnboardingPage />;
}

function AuditorsCannotCreate() {
  return (
    <EmptyState py="xl" withIndicatorBackground icon={<IconLock size={28} aria-hidden />}>
      <EmptyState.Title order={1}>Auditors cannot create entities</EmptyState.Title>
      <EmptyState.Description>
        Your account has the auditor role: it reads every record and its activity and changes
        nothing. A reviewer onboards new legal entities.
      </EmptyState.Description>
      <EmptyState.Actions>
        <Button
          component={Link}
          to={paths.entities}
          variant="light"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
        >
          Back to entities
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
