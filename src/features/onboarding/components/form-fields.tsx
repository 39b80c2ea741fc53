import { Textarea, TextInput, type TextareaProps, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { get, useFormContext, useFormState, type FieldPath } from 'react-hook-form';
import { firstErrorMessage, type OnboardingFormValues } from '../onboarding-form.ts';

type OnboardingPath = FieldPath<OnboardingFormValues>;

/** The field's error, subscribed to that field alone so typing elsewhere does not re-render it. */
function useFieldError(name: OnboardingPath): string | undefined {
  const { control } = useFormContext<OnboardingFormValues>();
  const { errors } = useFormState({ control, name, exact: true });
  return firstErrorMessage(get(errors, name));
}

/** A Mantine TextInput registered with the onboarding form, showing its field's error. */
export function FormTextInput({
  name,
  errorAction,
  ...props
}: TextInputProps & {
  name: OnboardingPath;
  /** Shown after the error message while there is one (a link to act on it). */
  errorAction?: ReactNode;
}) {
  const { register } = useFormContext<OnboardingFormValues>();
  const error = useFieldError(name);
  return (
    <TextInput
      {...props}
      {...register(name)}
      error={
        error && errorAction ? (
          <>
            {error}
            {errorAction}
          </>
        ) : (
          error
        )
      }
    />
  );
}

export function FormTextarea({ name, ...props }: TextareaProps & { name: OnboardingPath }) {
  const { register } = useFormContext<OnboardingFormValues>();
  return <Textarea {...props} {...register(name)} error={useFieldError(name)} />;
}
