import { Box, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DetailField {
  label: string;
  /** Empty values show as a dash so a missing field reads as missing, not as a layout gap. */
  value: ReactNode;
}

const isEmpty = (value: ReactNode) => value === null || value === undefined || value === '';

/** Label and value pairs as a description list, two columns where there is room. */
export function DetailFields({
  fields,
  columns = 2,
}: {
  fields: DetailField[];
  columns?: 1 | 2 | 3;
}) {
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 1, sm: columns }}
      spacing="md"
      verticalSpacing="sm"
      m={0}
    >
      {fields.map((field) => (
        <Box key={field.label}>
          <Text component="dt" size="xs" c="dimmed" fw={500} tt="uppercase">
            {field.label}
          </Text>
          <Box component="dd" m={0} fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {isEmpty(field.value) ? '—' : field.value}
          </Box>
        </Box>
      ))}
    </SimpleGrid>
  );
}
