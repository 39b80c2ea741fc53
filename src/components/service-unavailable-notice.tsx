import { Alert } from '@mantine/core';
import { useIsFetching } from '@tanstack/react-query';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { isServiceUnavailable } from '../lib/query-client.ts';

/** While any read is being retried after a 503, says so once for the whole page. */
export function ServiceUnavailableNotice() {
  const retrying = useIsFetching({
    predicate: (query) => isServiceUnavailable(query.state.fetchFailureReason),
  });
  if (retrying === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      icon={<IconPlugConnectedX aria-hidden />}
      title="The service is unavailable, retrying"
      mb="md"
    >
      Pages load by themselves once it answers again. Changes you make meanwhile are not sent: try
      them again afterwards.
    </Alert>
  );
}
