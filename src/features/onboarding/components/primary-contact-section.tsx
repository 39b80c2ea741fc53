import { Checkbox, SimpleGrid, Stack } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import type { OnboardingFormValues } from '../onboarding-form.ts';
import { FormTextInput } from './form-fields.tsx';

export function PrimaryContactSection() {
  const { control, register } = useFormContext<OnboardingFormValues>();
  const hasPrimaryContact = useWatch({ control, name: 'hasPrimaryContact' });
  return (
    <Stack gap="sm">
      <Checkbox
        label="Add a primary contact"
        description="The contact becomes a natural person linked to the entity; update requests go to them."
        {...register('hasPrimaryContact')}
      />
      {hasPrimaryContact && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" verticalSpacing="sm">
          <FormTextInput name="primaryContact.firstName" label="First name" required />
          <FormTextInput name="primaryContact.lastName" label="Last name" required />
          <FormTextInput
            name="primaryContact.email"
            label="E-mail"
            type="email"
            required
            autoComplete="off"
          />
          <FormTextInput name="primaryContact.phone" label="Phone" type="tel" autoComplete="off" />
        </SimpleGrid>
      )}
    </Stack>
  );
}
