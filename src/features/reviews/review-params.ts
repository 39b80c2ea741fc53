import { COUNTRY_CODES } from '../../../contract/countries.ts';
import { ENTITY_TYPES, KYC_STATUSES, RISK_LEVELS } from '../../../contract/entities.ts';
import { REVIEW_WINDOWS, type ReviewCounts, type ReviewWindow } from '../../../contract/reviews.ts';

/** The queue a reviewer looks at: the window and the filters, as kept in the address. */
export interface ReviewQueueParams {
  due: ReviewWindow;
  status?: (typeof KYC_STATUSES)[number];
  country?: (typeof COUNTRY_CODES)[number];
  riskLevel?: (typeof RISK_LEVELS)[number];
  type: (typeof ENTITY_TYPES)[number];
  /** Whose entities: the caller's, nobody's or everyone's; unset, the page picks (mine when I have work). */
  assignee?: QueueAssignee;
}

export const QUEUE_ASSIGNEES = ['me', 'none', 'all'] as const;
export type QueueAssignee = (typeof QUEUE_ASSIGNEES)[number];

export const ASSIGNEE_LABELS: Record<QueueAssignee, string> = {
  me: 'Assigned to me',
  none: 'Unassigned',
  all: 'Everyone',
};

/** The API's `assignee` for a queue: everyone's is no filter at all. */
export function assigneeQueryOf(queue: ReviewQueueParams): 'me' | 'none' | undefined {
  return queue.assignee === 'me' || queue.assignee === 'none' ? queue.assignee : undefined;
}

export const DEFAULT_QUEUE: ReviewQueueParams = { due: 'overdue', type: 'all' };

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined;
}

/**
 * Reads the queue from search params; anything unexpected falls back to its default. `windowKey`
 * is `due` on the Reviews page and `queue` on an entity page opened from it.
 */
export function queueFromSearchParams(
  params: URLSearchParams,
  windowKey: 'due' | 'queue' = 'due',
): ReviewQueueParams {
  const status = oneOf(KYC_STATUSES, params.get('status'));
  const country = oneOf(COUNTRY_CODES, params.get('country'));
  const riskLevel = oneOf(RISK_LEVELS, params.get('riskLevel'));
  const assignee = oneOf(QUEUE_ASSIGNEES, params.get('assignee'));
  return {
    ...(assignee ? { assignee } : {}),
    due: oneOf(REVIEW_WINDOWS, params.get(windowKey)) ?? DEFAULT_QUEUE.due,
    type: oneOf(ENTITY_TYPES, params.get('type')) ?? DEFAULT_QUEUE.type,
    ...(status ? { status } : {}),
    ...(country ? { country } : {}),
    ...(riskLevel ? { riskLevel } : {}),
  };
}

/** Writes what differs from the defaults, so the plain queue keeps a plain address. */
export function searchParamsFromQueue(
  queue: ReviewQueueParams,
  windowKey: 'due' | 'queue' = 'due',
): URLSearchParams {
  const params = new URLSearchParams();
  // An entity page always names its queue: that is what shows the queue navigation.
  if (windowKey === 'queue' || queue.due !== DEFAULT_QUEUE.due) params.set(windowKey, queue.due);
  if (queue.status) params.set('status', queue.status);
  if (queue.country) params.set('country', queue.country);
  if (queue.riskLevel) params.set('riskLevel', queue.riskLevel);
  if (queue.type !== DEFAULT_QUEUE.type) params.set('type', queue.type);
  if (queue.assignee) params.set('assignee', queue.assignee);
  return params;
}

/**
 * The search of an entity page opened from the queue: the queue, the item's own cursor (where the
 * queue goes on after it) and its position when it was opened.
 */
export function queueLinkSearch(queue: ReviewQueueParams, cursor: string, position: number) {
  const params = searchParamsFromQueue(queue, 'queue');
  params.set('after', cursor);
  params.set('position', String(position));
  return `?${params.toString()}`;
}

export const WINDOW_LABELS: Record<ReviewWindow, string> = {
  overdue: 'Overdue',
  '7d': 'Due in 7 days',
  '30d': 'Due in 30 days',
  all: 'All',
  undated: 'Undated',
  responded: 'Responded',
};

/** The count of a window, where the server counts it (not for `all`). */
export function countOf(counts: ReviewCounts | undefined, window: ReviewWindow) {
  if (!counts) return undefined;
  if (window === 'overdue') return counts.overdue;
  if (window === '7d') return counts.due7;
  if (window === '30d') return counts.due30;
  if (window === 'undated') return counts.undated;
  if (window === 'responded') return counts.responded;
  return counts.all;
}
