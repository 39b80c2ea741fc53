import { Anchor, Select, SimpleGrid } from '@mantine/core';
import { Controller, useFormContext, useFormState } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { COUNTRY_CODES } from '../../../../contract/countries.ts';
import { RISK_LEVELS } from '../../../../contract/entities.ts';
import { countryName } from '../../../lib/format.ts';
import {
  firstErrorMessage,
  type ExistingEntity,
  type OnboardingFormValues,
} from '../onboarding-form.ts';
import { FormTextInput } from './form-fields.tsx';
import { DateField } from '../../../components/date-field.tsx';

const countryOptions = COUNTRY_CODES.map((code) => ({
  value: code,
  label: `${countryName(code)} (${code})`,
})).sort((a, b) => a.label.localeCompare(b.label));

export function CorporateInformationSection({
  existingEntity,
}: {
  /** The entity a 409 named, linked under the registration number while its error stands. */
  existingEntity: ExistingEntity | null;
}) {
  const { control } = useFormContext<OnboardingFormValues>();
  const { errors } = useFormState({
    control,
    name: 'corporateInformation.registrationNumber',
    exact: true,
  });
  const registrationError = errors.corporateInformation?.registrationNumber;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
      <FormTextInput name="corporateInformation.companyName" label="Company name" required />
      <FormTextInput
        name="corporateInformation.registrationNumber"
        label="Registration number"
        required
        errorAction={
          registrationError?.type === 'duplicate' && existingEntity ? (
            <>
              {' '}
              Open{' '}
              <Anchor component={Link} to={paths.entity(existingEntity.entityId)} inherit>
                {existingEntity.companyName || 'the existing legal entity'}
              </Anchor>
              .
            </>
          ) : undefined
        }
      />
      <Controller
        control={control}
        name="corporateInformation.country"
        render={({ field, fieldState }) => (
          <Select
            label="Country"
            required
            placeholder="Type to search"
            data={countryOptions}
            searchable
            clearable
            nothingFoundMessage="No country matches"
            value={field.value === '' ? null : field.value}
            onChange={(value) => field.onChange(value ?? '')}
            onBlur={field.onBlur}
            ref={field.ref}
            name={field.name}
            error={firstErrorMessage(fieldState.error)}
          />
        )}
      />
      <DateField<OnboardingFormValues>
        name="corporateInformation.dateofIncorporation"
        label="Date of incorporation"
      />
      <FormTextInput
        name="corporateInformation.duns"
        label="DUNS"
        description="9 digits"
        inputMode="numeric"
        autoComplete="off"
      />
      <FormTextInput
        name="corporateInformation.glei"
        label="LEI"
        description="20 characters, ISO 17442"
        autoComplete="off"
      />
      <FormTextInput
        name="corporateInformation.companyPhone"
        label="Company phone"
        type="tel"
        autoComplete="off"
      />
      <FormTextInput
        name="corporateInformation.email"
        label="Company e-mail"
        type="email"
        autoComplete="off"
      />
      <FormTextInput name="externalID" label="External ID" description="Your own reference" />
      <Controller
        control={control}
        name="riskLevel"
        render={({ field, fieldState }) => (
          <Select
            label="Risk level"
            description="Sets the review cycle (High 1 year, Medium 2, Low 3) and the four-eyes rule"
            required
            data={[...RISK_LEVELS]}
            allowDeselect={false}
            value={field.value ?? 'Medium'}
            onChange={(value) => field.onChange(value ?? 'Medium')}
            onBlur={field.onBlur}
            ref={field.ref}
            error={firstErrorMessage(fieldState.error)}
          />
        )}
      />
      <FormTextInput name="corporateInformation.primaryAddress" label="Address" />
      <FormTextInput name="corporateInformation.city" label="City" />
      <FormTextInput name="corporateInformation.stateProvince" label="State/province" />
      <FormTextInput name="corporateInformation.postalCode" label="Postal code" />
    </SimpleGrid>
  );
}
