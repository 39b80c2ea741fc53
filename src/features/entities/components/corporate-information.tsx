import { Anchor, Group } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button.tsx';
import type { CorporateInformation as CorporateInformationRecord } from '../../../../contract/entities.ts';
import { countryName, formatDate } from '../../../lib/format.ts';
import { DetailFields } from './detail-fields.tsx';
import { DetailSection } from './detail-section.tsx';

function WithCopy({ value, label }: { value: string; label: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <span>{value}</span>
      <CopyButton value={value} label={label} />
    </Group>
  );
}

export function CorporateInformation({ info }: { info: CorporateInformationRecord }) {
  return (
    <DetailSection title="Corporate information">
      <DetailFields
        fields={[
          { label: 'Company name', value: info.companyName },
          { label: 'Registration number', value: info.registrationNumber },
          {
            label: 'Date of incorporation',
            value: info.dateofIncorporation ? formatDate(info.dateofIncorporation) : null,
          },
          {
            label: 'Country',
            value: info.country ? `${countryName(info.country)} (${info.country})` : null,
          },
          { label: 'DUNS', value: info.duns ? <WithCopy value={info.duns} label="DUNS" /> : null },
          { label: 'LEI', value: info.glei ? <WithCopy value={info.glei} label="LEI" /> : null },
          {
            label: 'E-mail',
            value: info.email ? <Anchor href={`mailto:${info.email}`}>{info.email}</Anchor> : null,
          },
          { label: 'Phone', value: info.companyPhone },
          { label: 'Primary address', value: info.primaryAddress },
          { label: 'City', value: info.city },
          { label: 'State / province', value: info.stateProvince },
          { label: 'Postal code', value: info.postalCode },
        ]}
      />
    </DetailSection>
  );
}
