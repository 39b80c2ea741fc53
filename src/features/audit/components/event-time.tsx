import { Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';

/** When an event happened, in the console's one time style; the exact UTC instant on hover. */
export function EventTime({ at }: { at: string }) {
  return (
    <Text
      component="time"
      dateTime={at}
      title={`${at} (UTC)`}
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
    >
      {formatDateTime(at)}
    </Text>
  );
}
