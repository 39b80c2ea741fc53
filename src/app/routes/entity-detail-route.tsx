import { Title } from '@mantine/core';

/** STUB: replaced by the detail work. */
export function EntityDetailRoute() {
  return <Title order={1}>Entity</Title>;
}
