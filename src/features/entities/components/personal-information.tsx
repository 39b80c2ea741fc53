import { Anchor } from '@mantine/core';
import type { PersonalInformation as PersonalInformationRecord } from '../../../../contract/entities.ts';
import { countryName, formatDate } from '../../../lib/format.ts';
import { DetailFields } from './detail-fields.tsx';
import { DetailSection } from './detail-section.tsx';

export function PersonalInformation({ info }: { info: PersonalInformationRecord }) {
  return (
    <DetailSection title="Personal information">
      <DetailFields
        fields={[
          { label: 'First name', value: info.firstName },
          { label: 'Middle name', value: info.middleName },
          { label: 'Last name', value: info.lastName },
          { label: 'Date of birth', value: info.dateOfBirth ? formatDate(info.dateOfBirth) : null },
          {
            label: 'E-mail',
            value: info.email ? <Anchor href={`mailto:${info.email}`}>{info.email}</Anchor> : null,
          },
          { label: 'Phone', value: info.phone },
          { label: 'Address', value: info.address },
          { label: 'City', value: info.city },
          { label: 'State / province', value: info.stateProvince },
          { label: 'Postal code', value: info.postalCode },
          {
            label: 'Country',
            value: info.countryCode
              ? `${countryName(info.countryCode)} (${info.countryCode})`
              : null,
          },
        ]}
      />
    </DetailSection>
  );
}
