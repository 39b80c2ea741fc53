import { Button, Grid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useDeferredValue } from 'react';
import { Link } from 'react-router';
import { paths, type EntityLinkType } from '../../../lib/paths.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import type { LegalEntity, NaturalPerson } from '../../../../contract/entities.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { personName } from './entity-row.ts';
import { LegalEntityDetail } from './legal-entity-detail.tsx';
import { NaturalPersonDetail } from './natural-person-detail.tsx';

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * An ID names either kind. A link that carries the type (`paths.entity(id, type)`) asks that
 * endpoint alone; an old link without it asks for a legal entity first, then a person on 404.
 */
export function useEntityLookup(id: string, type?: EntityLinkType) {
  const knownPerson = type === 'Natural Person';
  const legalEntity = useQuery({ ...entityQueries.legalEntity(id), enabled: !knownPerson });
  const tryPerson = knownPerson || (legalEntity.isError && isNotFound(legalEntity.error));
  const naturalPerson = useQuery({ ...entityQueries.naturalPerson(id), enabled: tryPerson });
  return { legalEntity, naturalPerson, tryPerson };
}

export interface EntityDetailPageProps {
  id: string;
  /** The type the link carried, if any. */
  type?: EntityLinkType;
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
  type,
  renderDocuments,
  renderClientUpdates,
  renderReview,
  renderNotes,
  sectionsPending = false,
}: EntityDetailPageProps) {
  const { legalEntity, naturalPerson, tryPerson } = useEntityLookup(id, type);
  // The page is built in a transition React can pause between components: rendered at once when
  // the entity arrived, it was one 50-80 ms task that held up input (Lighthouse's TBT).
  const legalEntityData = useDeferredValue(legalEntity.data);
  const naturalPersonData = useDeferredValue(naturalPerson.data);
  useDocumentTitle(
    legalEntity.data?.corporateInformation.companyName ??
      (naturalPerson.data ? personName(naturalPerson.data.personalInformation) : null) ??
      (isNotFound(naturalPerson.error) ? 'Entity not found' : 'Entity'),
  );

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
