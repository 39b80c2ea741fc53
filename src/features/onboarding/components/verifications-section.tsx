import { Button, Checkbox, Fieldset, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { KYC_STATUSES, wallClockToday } from '../../../../contract/entities.ts';
import {
  firstErrorMessage,
  MAX_VERIFICATIONS,
  newVerificationValues,
  type OnboardingFormValues,
} from '../onboarding-form.ts';
import { FormTextarea, FormTextInput } from './form-fields.tsx';
import { DateField } from '../../../components/date-field.tsx';

export function VerificationsSection() {
  const { control, register, getValues } = useFormContext<OnboardingFormValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: 'corporateVerifications',
    keyName: 'fieldKey',
  });
  return (
    <Stack gap="sm">
      {fields.length === 0 && (
        <Text c="dimmed" size="sm">
          No verification recorded. Add one if the entity has already been checked.
        </Text>
      )}
      {fields.map((field, index) => (
        <Fieldset key={field.fieldKey} legend={`Verification ${index + 1}`}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" verticalSpacing="sm">
            <Controller
              control={control}
              name={`corporateVerifications.${index}.verificationStatus`}
              render={({ field: statusField, fieldState }) => (
                <Select
                  label="Status"
                  required
                  data={KYC_STATUSES}
                  allowDeselect={false}
                  value={statusField.value === '' ? null : statusField.value}
                  onChange={(value) => statusField.onChange(value ?? '')}
                  onBlur={statusField.onBlur}
                  ref={statusField.ref}
                  error={firstErrorMessage(fieldState.error)}
                />
              )}
            />
            <DateField<OnboardingFormValues>
              name={`corporateVerifications.${index}.verificationDate`}
              label="Verification date"
              required
            />
            <DateField<OnboardingFormValues>
              name={`corporateVerifications.${index}.nextReviewDate`}
              label="Next review date"
              required
            />
            <FormTextInput
              name={`corporateVerifications.${index}.verificationSource`}
              label="Source"
              required
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mt="sm">
            <FormTextarea
              name={`corporateVerifications.${index}.businessStatement`}
              label="Business statement"
              rows={3}
              resize="vertical"
            />
            <FormTextarea
              name={`corporateVerifications.${index}.verificationIssues`}
              label="Issues"
              description="One issue per line"
              rows={3}
              resize="vertical"
            />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            <Checkbox
              label="Verification of the legal entity itself"
              {...register(`corporateVerifications.${index}.legalEntityVerification`)}
            />
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => remove(index)}
              aria-label={`Remove verification ${index + 1}`}
            >
              Remove
            </Button>
          </Group>
        </Fieldset>
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          // Today in UTC, as the schema counts it: at UTC+14 the local date is already tomorrow.
          onClick={() => append(newVerificationValues(wallClockToday(), getValues('riskLevel')))}
          disabled={fields.length >= MAX_VERIFICATIONS}
        >
          Add verification
        </Button>
      </Group>
    </Stack>
  );
}
