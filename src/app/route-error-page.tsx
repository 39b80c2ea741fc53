import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../lib/paths.ts';

/** What a reviewer sees instead of a blank page when a screen fails to render or load. */
export function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Stack align="flex-start" gap="md" p="xl" maw={720} component="main">
      <Title order={1}>Something went wrong</Title>
      <Alert color="red" title="This screen could not be shown" w="100%">
        {detail}
      </Alert>
      <Group>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
        <Button component={Link} to={paths.entities} variant="default">
          Go to entities
        </Button>
      </Group>
    </Stack>
  );
}
