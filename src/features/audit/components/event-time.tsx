import { Text } from '@mantine/core';
import { formatLocalDateTime } from '../../../lib/format.ts';

/** When an event happened, in the reader's locale and zone; the exact UTC instant on hover. */
export function EventTime({ at }: { at: string }) {
  return (
    <Text
      component="time"
      dateTime={at}
      title={`${at} (UTC)`}
      size="sm"
      style={{ whiteSpace: 'nowrap' }}
    >
      {formatLocalDateTime(at)}
    </Text>
  );
}
