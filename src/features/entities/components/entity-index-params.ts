import {
  ENTITY_INDEX_ORDERS,
  ENTITY_INDEX_SORTS,
  type EntityIndexOrder,
  type EntityIndexSort,
} from '../../../../contract/entity-index.ts';
import { COUNTRY_CODES } from '../../../../contract/countries.ts';
import { ENTITY_TYPES, KYC_STATUSES, RISK_LEVELS } from '../../../../contract/entities.ts';
import type { EntityIndexView } from '../api/entity-index-queries.ts';

export const INDEX_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_INDEX_VIEW: EntityIndexView = {
  type: 'all',
  sort: 'name',
  order: 'asc',
  limit: 25,
};

/** The sort control's choices: each order with words a person would use. */
export const SORT_CHOICES: { value: `${EntityIndexSort}:${EntityIndexOrder}`; label: string }[] = [
  { value: 'name:asc', label: 'Name, A to Z' },
  { value: 'name:desc', label: 'Name, Z to A' },
  { value: 'created:desc', label: 'Newest first' },
  { value: 'created:asc', label: 'Oldest first' },
  { value: 'nextReview:asc', label: 'Next review, soonest first' },
  { value: 'nextReview:desc', label: 'Next review, latest first' },
  { value: 'status:asc', label: 'KYC status, A to Z' },
  { value: 'status:desc', label: 'KYC status, Z to A' },
];

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined;
}

/** Reads the view from the address bar; anything unexpected falls back to its default. */
export function indexViewFromSearchParams(params: URLSearchParams): EntityIndexView {
  const limit = Number(params.get('limit'));
  const q = params.get('q')?.trim();
  const assignee = params.get('assignee');
  const cursor = params.get('cursor');
  return {
    type: oneOf(ENTITY_TYPES, params.get('type')) ?? DEFAULT_INDEX_VIEW.type,
    sort: oneOf(ENTITY_INDEX_SORTS, params.get('sort')) ?? DEFAULT_INDEX_VIEW.sort,
    order: oneOf(ENTITY_INDEX_ORDERS, params.get('order')) ?? DEFAULT_INDEX_VIEW.order,
    limit: (INDEX_PAGE_SIZES as readonly number[]).includes(limit)
      ? limit
      : DEFAULT_INDEX_VIEW.limit,
    ...optional('kycStatus', oneOf(KYC_STATUSES, params.get('kycStatus'))),
    ...optional('riskLevel', oneOf(RISK_LEVELS, params.get('riskLevel'))),
    ...optional('country', oneOf(COUNTRY_CODES, params.get('country'))),
    ...optional('assignee', assignee && assignee.length <= 100 ? assignee : undefined),
    ...optional('q', q && q.length <= 200 ? q : undefined),
    ...optional('cursor', cursor && cursor.length <= 500 ? cursor : undefined),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Writes only what differs from the defaults, so the plain list keeps a plain address. */
export function searchParamsFromIndexView(view: EntityIndexView): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(view)) {
    if (value === undefined) continue;
    if (DEFAULT_INDEX_VIEW[key as keyof EntityIndexView] === value) continue;
    params.set(key, String(value));
  }
  return params;
}
