import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';

export interface ErrorStateProps {
  /** The envelope's message (ApiError.message) or another sentence for the reviewer. */
  message: string;
  title?: string;
  /** Shows a Retry button when given. */
  onRetry?: () => void;
  /** Puts the Retry button in its pending state. */
  retrying?: boolean;
}

/** A failed load: what went wrong, in the server's words, and a way to try again. */
export function ErrorState({
  message,
  title = 'Something went wrong',
  onRetry,
  retrying = false,
}: ErrorStateProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle aria-hidden />}
      role="alert"
    >
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button
            variant="white"
            color="red"
            size="xs"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={onRetry}
            loading={retrying}
          >
            Retry
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
