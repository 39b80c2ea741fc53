import { Grid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { NaturalPerson } from '../../../../contract/entities.ts';
import { DetailSection } from './detail-section.tsx';
import { BelowEntityDetailHeader, EntityDetailHeader } from './entity-detail-header.tsx';
import { IdentityChecks } from './identity-checks.tsx';
import { KycMetadataSection } from './kyc-metadata-section.tsx';
import { LinkedLegalEntities } from './linked-legal-entities.tsx';
import { PersonalInformation } from './personal-information.tsx';

export function fullName(person: NaturalPerson): string {
  const { firstName, middleName, lastName } = person.personalInformation;
  return [firstName, middleName, lastName].filter(Boolean).join(' ');
}

export function NaturalPersonDetail({
  person,
  documents,
  review,
  notes,
}: {
  person: NaturalPerson;
  /** Filled by the app from the documents feature. */
  documents: ReactNode;
  /** Recording review outcomes and risk changes, where the server offers it. */
  review?: ReactNode;
  /** The notes thread, where the server offers notes. */
  notes?: ReactNode;
}) {
  return (
    <Stack gap="lg">
      <EntityDetailHeader
        id={person.id}
        title={fullName(person)}
        typeLabel="Natural person"
        kyc={person.kycMetaData}
      />
      <BelowEntityDetailHeader>
        {review}
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              <PersonalInformation info={person.personalInformation} />
              <IdentityChecks person={person} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="lg">
              <KycMetadataSection kyc={person.kycMetaData} />
              <LinkedLegalEntities links={person.personalInformation.linkedEntities} />
              {notes}
            </Stack>
          </Grid.Col>
        </Grid>
        <DetailSection title="Supporting documents">{documents}</DetailSection>
      </BelowEntityDetailHeader>
    </Stack>
  );
}
