import { Anchor, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { AuditEvent } from '../../../../contract/audit.ts';
import { withVisibleControls as shown } from '../../../../contract/visible-text.ts';
import { describeActor, describeEvent } from '../audit-event-labels.ts';
import { EventTime } from './event-time.tsx';
import { OutcomeBadge } from './outcome-badge.tsx';

const COLUMNS = ['Time', 'Actor', 'Action', 'Entity', 'Outcome', 'Client address', 'Request ID'];

function Head() {
  return (
    <Table.Thead>
      <Table.Tr>
        {COLUMNS.map((column) => (
          <Table.Th key={column} scope="col">
            {column}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/** Who acted, in words; the actor as recorded below it when the words do not show it (what Actor filters on). */
function ActorCell({ event }: { event: AuditEvent }) {
  const words = describeActor(event);
  const recorded = shown(event.actor);
  return (
    <>
      <Text size="sm">{words}</Text>
      {!words.includes(recorded) && (
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {recorded}
        </Text>
      )}
    </>
  );
}

export function AuditEventTable({
  events,
  busy = false,
}: {
  events: readonly AuditEvent[];
  /** True while another filter's events load behind the rows still shown. */
  busy?: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        Times are in UTC; hover one for the exact instant, to the second.
      </Text>
      <Table.ScrollContainer minWidth={1040}>
        <Table
          captionSide="top"
          aria-busy={busy}
          striped
          verticalSpacing="xs"
          style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          <Table.Caption ta="left">Audit events, newest first</Table.Caption>
          <Head />
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <EventTime at={event.at} />
                </Table.Td>
                <Table.Td>
                  <ActorCell event={event} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{describeEvent(event)}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {shown(event.action)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {event.entityId ? (
                    <Anchor
                      component={Link}
                      to={paths.entity(event.entityId)}
                      size="sm"
                      ff={event.entityName ? undefined : 'monospace'}
                      title={event.entityName ? event.entityId : undefined}
                    >
                      {shown(event.entityName || event.entityId)}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>
                  {event.outcome === 'success' ? (
                    <Text size="sm">Success</Text>
                  ) : (
                    <OutcomeBadge outcome={event.outcome} />
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {event.clientAddress === null ? '—' : shown(event.clientAddress)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {event.requestId === null ? '—' : shown(event.requestId)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** Placeholder rows in the table's shape, so the page does not jump when events arrive. */
export function AuditEventTableSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <Table.ScrollContainer minWidth={1040}>
      <Table captionSide="top" aria-busy verticalSpacing="xs">
        <Table.Caption ta="left">Loading audit events…</Table.Caption>
        <Head />
        <Table.Tbody>
          {Array.from({ length: rows }, (_, rowIndex) => (
            <Table.Tr key={rowIndex}>
              {COLUMNS.map((column) => (
                <Table.Td key={column}>
                  <Skeleton height={14} radius="sm" width="70%" />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
