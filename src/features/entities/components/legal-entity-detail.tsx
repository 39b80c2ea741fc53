import { Grid, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { LegalEntity } from '../../../../contract/entities.ts';
import { CorporateInformation } from './corporate-information.tsx';
import { DetailSection } from './detail-section.tsx';
import { BelowEntityDetailHeader, EntityDetailHeader } from './entity-detail-header.tsx';
import { KycMetadataSection } from './kyc-metadata-section.tsx';
import { LinkedPeople } from './linked-people.tsx';
import { VerificationsList } from './verifications-list.tsx';

export interface LegalEntityDetailProps {
  entity: LegalEntity;
  /** Slots the app fills from other features (documents, client updates). */
  documents: ReactNode;
  clientUpdates: ReactNode;
  /** Optional slots (decisions, notes): empty where the server does not offer them. */
  review?: ReactNode;
  notes?: ReactNode;
}

export function LegalEntityDetail({
  entity,
  documents,
  clientUpdates,
  review,
  notes,
}: LegalEntityDetailProps) {
  return (
    <Stack gap="lg">
      <EntityDetailHeader
        id={entity.id}
        title={entity.corporateInformation.companyName}
        typeLabel="Legal entity"
        kyc={entity.kycMetaData}
      />
      <BelowEntityDetailHeader>
        {review}
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              <CorporateInformation info={entity.corporateInformation} />
              <VerificationsList verifications={entity.corporateVerifications} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="lg">
              <KycMetadataSection kyc={entity.kycMetaData} />
              <LinkedPeople entityId={entity.id} links={entity.linkedEntities} />
              {notes}
            </Stack>
          </Grid.Col>
        </Grid>
        <DetailSection title="Supporting documents">{documents}</DetailSection>
        <Paper withBorder p="md">
          {clientUpdates}
        </Paper>
      </BelowEntityDetailHeader>
    </Stack>
  );
}
