import { Title } from '@mantine/core';

/** STUB: replaced by the auth work. */
export function LoginPage() {
  return <Title order={1}>Sign in</Title>;
}
