import {
  Anchor,
  Badge,
  Button,
  Box,
  Checkbox,
  Group,
  NativeSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerTrackNext } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { COUNTRY_CODES } from '../../../../contract/countries.ts';
import { ENTITY_TYPES, KYC_STATUSES, RISK_LEVELS } from '../../../../contract/entities.ts';
import {
  REVIEW_WINDOWS,
  type ReviewItem,
  type ReviewWindow,
} from '../../../../contract/reviews.ts';
import { CsvExportButton } from '../../../components/csv-export-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { apiDownload } from '../../../lib/api-client.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { countryName, formatDate } from '../../../lib/format.ts';
import { reviewQueries, useTakeNext } from '../api/review-queries.ts';
import {
  ASSIGNEE_LABELS,
  QUEUE_ASSIGNEES,
  countOf,
  queueFromSearchParams,
  queueLinkSearch,
  searchParamsFromQueue,
  WINDOW_LABELS,
  type ReviewQueueParams,
} from '../review-params.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';

const EMPTY_TITLES: Record<ReviewWindow, string> = {
  overdue: 'Nothing overdue',
  '7d': 'Nothing due in the next 7 days',
  '30d': 'Nothing due in the next 30 days',
  all: 'No entity has a next review date',
  undated: 'Every entity has a next review date',
  responded: 'No client response is waiting for review',
};

const CAPTIONS: Record<ReviewWindow, string> = {
  overdue: 'Overdue reviews, most overdue first',
  '7d': 'Reviews due from today to 7 days ahead, soonest first',
  '30d': 'Reviews due from today to 30 days ahead, soonest first',
  all: 'Every scheduled review, soonest first',
  undated: 'Entities without a next review date, by ID',
  responded: 'Legal entities whose client answered an update request, by ID',
};

const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'))
  .map((option) => ({ ...option, label: `${option.label} (${option.value})` }));

function isWindow(value: string | null): value is ReviewWindow {
  return (REVIEW_WINDOWS as readonly (string | null)[]).includes(value);
}

/** The queue's window and filters live in the address, so links are shareable and Back works. */
function useQueueParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const queue = useMemo(() => queueFromSearchParams(searchParams), [searchParams]);
  const update = (changes: Partial<ReviewQueueParams>) => {
    setSearchParams(searchParamsFromQueue({ ...queue, ...changes }));
  };
  return [queue, update] as const;
}

/** One of `values`, or undefined for "any" (the empty option): the filter is dropped. */
function optionOf<T extends string>(values: readonly T[], value: string): T | undefined {
  return values.find((known) => known === value);
}

function Filters({
  queue,
  update,
}: {
  queue: ReviewQueueParams;
  update: (changes: Partial<ReviewQueueParams>) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" maw={760} role="group" aria-label="Filters">
      <NativeSelect
        label="Status"
        value={queue.status ?? ''}
        onChange={(event) => update({ status: optionOf(KYC_STATUSES, event.currentTarget.value) })}
        data={[{ value: '', label: 'Any status' }, ...KYC_STATUSES]}
      />
      <NativeSelect
        label="Risk level"
        value={queue.riskLevel ?? ''}
        onChange={(event) =>
          update({ riskLevel: optionOf(RISK_LEVELS, event.currentTarget.value) })
        }
        data={[{ value: '', label: 'Any risk' }, ...RISK_LEVELS]}
      />
      <NativeSelect
        label="Type"
        value={queue.type}
        onChange={(event) =>
          update({ type: optionOf(ENTITY_TYPES, event.currentTarget.value) ?? 'all' })
        }
        data={[
          { value: 'all', label: 'All types' },
          { value: 'legal-entities', label: 'Legal entities' },
          { value: 'natural-persons', label: 'Natural persons' },
        ]}
      />
      <Select
        label="Country"
        placeholder="Any country"
        searchable
        clearable
        nothingFoundMessage="No such country"
        value={queue.country ?? null}
        onChange={(value) => update({ country: optionOf(COUNTRY_CODES, value ?? '') })}
        data={COUNTRY_OPTIONS}
      />
    </SimpleGrid>
  );
}

function QueueTable({
  queue,
  items,
  today,
  assignment,
  renderRowActions,
  selection,
}: {
  queue: ReviewQueueParams;
  items: ReviewItem[];
  today: Date;
  assignment: boolean;
  renderRowActions: ((item: ReviewItem) => ReactNode) | undefined;
  /** The rows chosen for a bulk action, where the page offers one. */
  selection: Selection | undefined;
}) {
  const chosen = selection ? items.filter((item) => selection.ids.has(item.entityId)) : [];
  const allChosen = items.length > 0 && chosen.length === items.length;
  return (
    // On a phone Type and Country give way, so Status and Risk show whole without scrolling.
    <Table.ScrollContainer minWidth={340}>
      <Table striped highlightOnHover verticalSpacing="xs" captionSide="top">
        <Table.Caption>
          <VisuallyHidden>{CAPTIONS[queue.due]}</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {selection ? (
              <Table.Th scope="col" w={40}>
                <Checkbox
                  aria-label="Select every row shown"
                  checked={allChosen}
                  indeterminate={chosen.length > 0 && !allChosen}
                  onChange={() =>
                    selection.set(allChosen ? [] : items.map((item) => item.entityId))
                  }
                />
              </Table.Th>
            ) : null}
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col" visibleFrom="xs">
              Next review
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Risk</Table.Th>
            <Table.Th scope="col" visibleFrom="xs">
              Type
            </Table.Th>
            <Table.Th scope="col" visibleFrom="xs">
              Country
            </Table.Th>
            {assignment ? (
              <Table.Th scope="col" visibleFrom="sm">
                Assigned to
              </Table.Th>
            ) : null}
            {/* On a phone the menu would squeeze how overdue an entity is: assign from its page. */}
            {renderRowActions ? (
              <Table.Th scope="col" visibleFrom="xs">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item, index) => (
            <Table.Tr
              key={item.entityId}
              bg={
                selection?.ids.has(item.entityId) ? 'var(--mantine-primary-color-light)' : undefined
              }
            >
              {selection ? (
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${item.name || item.entityId}`}
                    checked={selection.ids.has(item.entityId)}
                    onChange={(event) =>
                      selection.toggle(item.entityId, event.currentTarget.checked)
                    }
                  />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`${paths.entity(item.entityId, item.type)}${queueLinkSearch(queue, item.cursor, index + 1)}`}
                  fw={500}
                >
                  {item.name || item.entityId}
                </Anchor>
                {/* On a phone the date goes under the name, so how overdue it is stays in view. */}
                <Box hiddenFrom="xs" mt={4}>
                  <ReviewDateBadge date={item.nextReviewDate} today={today} />
                </Box>
                {assignment && item.assignedUser ? (
                  <Text hiddenFrom="sm" size="xs" c="dimmed" mt={4}>
                    Assigned to {item.assignedUser}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <ReviewDateBadge date={item.nextReviewDate} today={today} />
              </Table.Td>
              <Table.Td>
                <StatusBadge status={item.kycStatus} />
              </Table.Td>
              <Table.Td>{item.riskLevel}</Table.Td>
              <Table.Td visibleFrom="xs">
                {item.type === 'Legal Entity' ? 'Legal entity' : 'Natural person'}
              </Table.Td>
              <Table.Td visibleFrom="xs">{countryName(item.country)}</Table.Td>
              {assignment ? (
                <Table.Td visibleFrom="sm">
                  {item.assignedUser ?? (
                    <Text span c="dimmed" size="sm">
                      Nobody
                    </Text>
                  )}
                </Table.Td>
              ) : null}
              {renderRowActions ? (
                <Table.Td visibleFrom="xs">{renderRowActions(item)}</Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export interface ReviewsPageProps {
  /** The mode keeps assignments: the "Assigned to me / Unassigned / Everyone" choice and column. */
  assignment?: boolean;
  /** The account may take work: "Take next unassigned". */
  canTakeNext?: boolean;
  /** Per row, what the page composing this one offers (assigning the entity). */
  renderRowActions?: (item: ReviewItem) => ReactNode;
  /**
   * What the page composing this one offers on the selected rows (bulk assign, a note on each);
   * with it every row gets a checkbox, and the header one selects every row shown.
   */
  renderBulkActions?: (selected: ReviewItem[], select: (ids: string[]) => void) => ReactNode;
}

/** Which rows are chosen, by entity id. */
interface Selection {
  ids: ReadonlySet<string>;
  set: (ids: string[]) => void;
  toggle: (id: string, chosen: boolean) => void;
}

/** The rows chosen for a bulk action; a new window, filter or tab starts with none. */
function useSelection(queueKey: string): Selection {
  const [state, setState] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: queueKey,
    ids: new Set(),
  });
  const ids = state.key === queueKey ? state.ids : new Set<string>();
  return {
    ids,
    set: (chosen) => setState({ key: queueKey, ids: new Set(chosen) }),
    toggle: (id, chosen) => {
      const next = new Set(ids);
      if (chosen) next.add(id);
      else next.delete(id);
      setState({ key: queueKey, ids: next });
    },
  };
}

/**
 * Whose queue is shown: the address's choice, else "Assigned to me" when anything is, else
 * everyone's; undefined while that is being found out.
 */
function useResolvedAssignee(queue: ReviewQueueParams, assignment: boolean) {
  const hasMine = useQuery({
    ...reviewQueries.hasMine(),
    enabled: assignment && queue.assignee === undefined,
  });
  if (!assignment) return 'all';
  if (queue.assignee) return queue.assignee;
  if (hasMine.isError) return 'all';
  if (hasMine.data === undefined) return undefined;
  return hasMine.data ? 'me' : 'all';
}

/** The review queue: what is due, counted per window, filtered, soonest first. */
export function ReviewsPage({
  assignment = false,
  canTakeNext = false,
  renderRowActions,
  renderBulkActions,
}: ReviewsPageProps = {}) {
  useDocumentTitle('Reviews');
  const [requested, update] = useQueueParams();
  const assignee = useResolvedAssignee(requested, assignment);
  const queue: ReviewQueueParams = assignment
    ? { ...requested, assignee: assignee ?? 'all' }
    : requested;
  const query = useInfiniteQuery({
    ...reviewQueries.queue(queue),
    enabled: assignee !== undefined,
  });
  const takeNext = useTakeNext();
  const navigate = useNavigate();
  const selection = useSelection(JSON.stringify(queue));

  async function onTakeNext() {
    try {
      const item = await takeNext.mutateAsync(queue);
      await navigate(paths.entity(item.entityId, item.type));
    } catch (error) {
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        color: 'gray',
        title: 'Nothing taken',
        message: error instanceof Error ? error.message : 'Something went wrong. Try again.',
      });
    }
  }
  const pages = query.data?.pages;
  const first = pages?.[0];
  const items = pages?.flatMap((page) => page.data);
  const today = first ? new Date(`${first.today}T00:00:00Z`) : new Date();
  const total = countOf(first?.counts, queue.due);

  let content;
  if (query.isError && items === undefined) {
    content = (
      <ErrorState
        title="The review queue could not be loaded"
        message={query.error.message}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (items === undefined) {
    content = (
      <Stack gap="xs">
        <VisuallyHidden role="status">Loading the review queue…</VisuallyHidden>
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} height={32} />
        ))}
      </Stack>
    );
  } else if (items.length === 0) {
    const mineOnly = assignment && queue.assignee === 'me';
    content = (
      <EmptyState
        title={EMPTY_TITLES[queue.due]}
        description={
          mineOnly
            ? 'Only entities assigned to you are shown, and none of them is here. See everyone’s, or try another window or fewer filters.'
            : 'Try another window or fewer filters.'
        }
        action={
          mineOnly ? (
            <Button variant="light" onClick={() => update({ assignee: 'all' })}>
              Show everyone’s
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    const selected = items.filter((item) => selection.ids.has(item.entityId));
    content = (
      <Stack gap="md">
        {renderBulkActions && selected.length > 0
          ? renderBulkActions(selected, selection.set)
          : null}
        <QueueTable
          queue={queue}
          items={items}
          today={today}
          assignment={assignment}
          renderRowActions={renderRowActions}
          selection={renderBulkActions ? selection : undefined}
        />
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed" role="status" aria-live="polite">
            {total === undefined
              ? `Showing ${items.length}`
              : `Showing ${items.length} of ${total}`}
          </Text>
          {query.hasNextPage ? (
            <Button
              variant="default"
              onClick={() => void query.fetchNextPage()}
              loading={query.isFetchingNextPage}
            >
              Load more
            </Button>
          ) : null}
        </Group>
        {query.isFetchNextPageError ? (
          <ErrorState
            title="More of the queue could not be loaded"
            message={query.error.message}
            onRetry={() => void query.fetchNextPage()}
          />
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={1}>Reviews</Title>
          <Text c="dimmed" size="sm">
            Entities whose next KYC review is due, soonest first, and those with no review date at
            all (Undated). Days count in UTC{first ? `; today is ${formatDate(first.today)}` : ''}.
          </Text>
        </div>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <CsvExportButton
            csvExport={{
              download: (options) =>
                apiDownload('/api/v2/reviews', {
                  query: { ...queue, format: 'csv' },
                  accept: 'text/csv',
                  ...options,
                }),
              fileName: `review-queue-${queue.due}.csv`,
            }}
          />
          {assignment && canTakeNext ? (
            <Button
              leftSection={<IconPlayerTrackNext size={18} aria-hidden />}
              loading={takeNext.isPending}
              onClick={() => void onTakeNext()}
            >
              Take next unassigned
            </Button>
          ) : null}
        </Group>
      </Group>
      {assignment ? (
        <SegmentedControl
          aria-label="Whose entities"
          value={assignee ?? ''}
          onChange={(value) => {
            const chosen = QUEUE_ASSIGNEES.find((known) => known === value);
            if (chosen) update({ assignee: chosen });
          }}
          data={QUEUE_ASSIGNEES.map((value) => ({ value, label: ASSIGNEE_LABELS[value] }))}
          style={{ alignSelf: 'flex-start' }}
        />
      ) : null}
      <Filters queue={queue} update={update} />
      <Tabs
        value={queue.due}
        onChange={(value) => {
          if (isWindow(value)) update({ due: value });
        }}
        keepMounted={false}
      >
        <Tabs.List aria-label="Review window">
          {REVIEW_WINDOWS.map((window) => {
            const count = countOf(first?.counts, window);
            return (
              <Tabs.Tab
                key={window}
                value={window}
                rightSection={
                  count === undefined ? undefined : (
                    <Badge
                      size="sm"
                      variant={window === 'overdue' && count > 0 ? 'filled' : 'light'}
                      color={window === 'overdue' && count > 0 ? 'red' : 'gray'}
                    >
                      {count}
                    </Badge>
                  )
                }
              >
                {WINDOW_LABELS[window]}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        {REVIEW_WINDOWS.map((window) => (
          <Tabs.Panel key={window} value={window} pt="md">
            {content}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
