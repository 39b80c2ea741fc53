import { Title } from '@mantine/core';

/** STUB: replaced by the list work. */
export function EntityListPage() {
  return <Title order={1}>Entities</Title>;
}
