import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../lib/paths.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Stack align="flex-start" gap="sm" p="md">
      <Title order={1}>Page not found</Title>
      <Text c="dimmed">There is nothing at this address. It may have been mistyped or moved.</Text>
      <Button component={Link} to={paths.entities}>
        Go to entities
      </Button>
    </Stack>
  );
}
