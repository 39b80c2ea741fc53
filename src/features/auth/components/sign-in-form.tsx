import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { credentialsSchema, type Credentials } from '../../../contract/auth.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSignIn } from '../hooks/use-sign-in.ts';
import type { Session } from '../session/session-store.ts';

interface SignInFormProps {
  onSignedIn: (session: Session) => void;
  defaultUsername?: string;
  /** The re-sign-in dialog keeps the same user: switching accounts goes through "Sign out". */
  usernameReadOnly?: boolean;
  /** Buttons shown beside "Sign in". */
  extraActions?: ReactNode;
}

const FIELDS = ['Username', 'Password'] as const;

/** Username and password, validated with the contract's schema, posted to /api/gettoken. */
export function SignInForm({
  onSignedIn,
  defaultUsername = '',
  usernameReadOnly = false,
  extraActions,
}: SignInFormProps) {
  const signIn = useSignIn();
  const form = useForm<z.input<typeof credentialsSchema>, unknown, Credentials>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { Username: defaultUsername, Password: '' },
  });
  const { errors } = form.formState;

  // mutateAsync, not mutate's callbacks: those are skipped when the form unmounts on success.
  const submit = form.handleSubmit(async (credentials) => {
    let session: Session;
    try {
      session = await signIn.mutateAsync(credentials);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      for (const fieldError of error.fieldErrors) {
        const field = FIELDS.find((name) => name.toLowerCase() === fieldError.field.toLowerCase());
        if (field) form.setError(field, { message: fieldError.message });
      }
      return;
    }
    onSignedIn(session);
  });

  const failure = signIn.error;
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" title="Could not sign in">
            {failure instanceof ApiError
              ? failure.message
              : 'Something went wrong while signing in. Try again.'}
          </Alert>
        )}
        <TextInput
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          readOnly={usernameReadOnly}
          variant={usernameReadOnly ? 'filled' : 'default'}
          autoFocus={!usernameReadOnly}
          error={errors.Username?.message}
          {...form.register('Username')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          data-autofocus={usernameReadOnly ? true : undefined}
          error={errors.Password?.message}
          {...form.register('Password')}
        />
        <Group justify="space-between" gap="sm" mt="xs">
          {extraActions}
          <Button type="submit" loading={signIn.isPending} ml="auto">
            Sign in
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
