import { Button, Grid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useDeferredValue } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import type { LegalEntity, NaturalPerson } from '../../../contract/entities.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { entityQueries } from '../api/entity-queries.ts';
import { LegalEntityDetail } from './legal-entity-detail.tsx';
import { NaturalPersonDetail } from './natural-person-detail.tsx';

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** An ID names either kind: ask for a legal entity first, then for a natural person on 404. */
export function useEntityLookup(id: string) {
  const legalEntity = useQuery(entityQueries.legalEntity(id));
  const tryPerson = legalEntity.isError && isNotFound(legalEntity.error);
  const naturalPerson = useQuery({ ...entityQueries.naturalPerson(id), enabled: tryPerson });
  return { legalEntity, naturalPerson, tryPerson };
}

export interface EntityDetailPageProps {
  id: string;
  /** Slots the app fills from the documents and client-updates features. */
  renderDocuments: (entityId: string) => ReactNode;
  renderClientUpdates: (entity: LegalEntity) => ReactNode;
  /** Recording review outcomes, where the server offers it. */
  renderReview?: (entity: LegalEntity | NaturalPerson) => ReactNode;
  /** The notes thread, where the server offers notes. */
  renderNotes?: (entityId: string) => ReactNode;
  /** What decides the slots is still loading: keep the skeleton so no section jumps in later. */
  sectionsPending?: boolean;
}

export function EntityDetailPage({
  id,
  renderDocuments,
  renderClientUpdates,
  renderReview,
  renderNotes,
  sectionsPending = false,
}: EntityDetailPageProps) {
  const { legalEntity, naturalPerson, tryPerson } = useEntityLookup(id);
  // The page is built in a transition React can pause between components: rendered at once when
  // the entity arrived, it was one 50-80 ms task that held up input (Lighthouse's TBT).
  const legalEntityData = useDeferredValue(legalEntity.data);
  const naturalPersonData = useDeferredValue(naturalPerson.data);

  if (sectionsPending) return <EntityDetailSkeleton />;
  if (legalEntity.isSuccess) {
    if (!legalEntityData) return <EntityDetailSkeleton />;
    return (
      <LegalEntityDetail
        entity={legalEntityData}
        documents={renderDocuments(legalEntityData.id)}
        clientUpdates={renderClientUpdates(legalEntityData)}
        review={renderReview?.(legalEntityData)}
        notes={renderNotes?.(legalEntityData.id)}
      />
    );
  }
  if (legalEntity.isError && !tryPerson) {
    return (
      <ErrorState
        title="The entity could not be loaded"
        message={legalEntity.error.message}
        onRetry={() => void legalEntity.refetch()}
        retrying={legalEntity.isFetching}
      />
    );
  }
  if (naturalPerson.isSuccess) {
    if (!naturalPersonData) return <EntityDetailSkeleton />;
    return (
      <NaturalPersonDetail
        person={naturalPersonData}
        documents={renderDocuments(naturalPersonData.id)}
        review={renderReview?.(naturalPersonData)}
        notes={renderNotes?.(naturalPersonData.id)}
      />
    );
  }
  if (naturalPerson.isError) {
    if (isNotFound(naturalPerson.error)) return <EntityNotFound id={id} />;
    return (
      <ErrorState
        title="The entity could not be loaded"
        message={naturalPerson.error.message}
        onRetry={() => void naturalPerson.refetch()}
        retrying={naturalPerson.isFetching}
      />
    );
  }
  return <EntityDetailSkeleton />;
}

export function EntityNotFound({ id }: { id: string }) {
  return (
    <Stack align="flex-start" gap="sm">
      <Title order={1}>Entity not found</Title>
      <Text>
        No entity with ID{' '}
        <Text span ff="monospace">
          {id}
        </Text>
        . It may have been mistyped, or the entity does not exist.
      </Text>
      <Button
        component={Link}
        to={paths.entities}
        leftSection={<IconArrowLeft size={16} aria-hidden />}
      >
        Back to entities
      </Button>
    </Stack>
  );
}

function EntityDetailSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-busy="true" aria-label="Loading entity">
      <Skeleton h={14} w={80} />
      <Skeleton h={36} w="40%" />
      <Skeleton h={20} w="30%" />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Skeleton h={260} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Skeleton h={260} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
