import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { credentialsSchema } from '../../../../contract/auth.ts';
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
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

/** The first message of each field the contract refuses. */
function errorsOf(values: Record<Field, string>): FieldErrors {
  const parsed = credentialsSchema.safeParse(values);
  const errors: FieldErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = FIELDS.find((name) => name === issue.path[0]);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * Username and password, validated with the contract's schema, posted to /api/gettoken. Plain
 * state rather than a form library: the sign-in page loads this before anything else.
 */
export function SignInForm({
  onSignedIn,
  defaultUsername = '',
  usernameReadOnly = false,
  extraActions,
}: SignInFormProps) {
  const signIn = useSignIn();
  const [values, setValues] = useState<Record<Field, string>>({
    Username: defaultUsername,
    Password: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  // After the first submit, each change checks again (as a form library's re-validation would).
  const [submitted, setSubmitted] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const change = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const next = { ...values, [field]: event.currentTarget.value };
    setValues(next);
    if (submitted) setErrors(errorsOf(next));
  };

  // mutateAsync, not mutate's callbacks: those are skipped when the form unmounts on success.
  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const parsed = credentialsSchema.safeParse(values);
    if (!parsed.success) {
      const found = errorsOf(values);
      setErrors(found);
      inputs.current[FIELDS.find((field) => found[field]) ?? 'Username']?.focus();
      return;
    }
    setErrors({});
    let session: Session;
    try {
      session = await signIn.mutateAsync(parsed.data);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const fromServer: FieldErrors = {};
      for (const fieldError of error.fieldErrors) {
        const field = FIELDS.find((name) => name.toLowerCase() === fieldError.field.toLowerCase());
        if (field) fromServer[field] = fieldError.message;
      }
      setErrors(fromServer);
      return;
    }
    onSignedIn(session);
  };

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
          error={errors.Username}
          name="Username"
          value={values.Username}
          onChange={change('Username')}
          ref={(input) => {
            inputs.current.Username = input;
          }}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          data-autofocus={usernameReadOnly ? true : undefined}
          error={errors.Password}
          name="Password"
          value={values.Password}
          onChange={change('Password')}
          ref={(input) => {
            inputs.current.Password = input;
          }}
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
