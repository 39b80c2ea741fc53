import { Title } from '@mantine/core';

/** STUB: replaced by the search work. */
export function SearchPage() {
  return <Title order={1}>Search legal entities</Title>;
}
