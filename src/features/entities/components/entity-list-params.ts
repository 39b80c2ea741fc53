import { ENTITY_TYPES, type EntityTypeFilter } from '../../../../contract/entities.ts';
import type { EntityListFilters } from '../../../lib/entity-queries.ts';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export const DEFAULT_LIST_FILTERS: EntityListFilters = {
  type: 'all',
  limit: 10,
  start: 0,
  descending: false,
  corporateVerification: false,
  supportingDocuments: false,
};

function isEntityType(value: string | null): value is EntityTypeFilter {
  return (ENTITY_TYPES as readonly (string | null)[]).includes(value);
}

function parsePageSize(value: string | null): number {
  const size = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_LIST_FILTERS.limit;
}

function parseStart(value: string | null): number {
  if (value === null || !/^\d{1,9}$/.test(value)) return DEFAULT_LIST_FILTERS.start;
  return Number(value);
}

/** Reads the list state from the address bar; anything unexpected falls back to its default. */
export function filtersFromSearchParams(params: URLSearchParams): EntityListFilters {
  const type = params.get('type');
  return {
    type: isEntityType(type) ? type : DEFAULT_LIST_FILTERS.type,
    limit: parsePageSize(params.get('limit')),
    start: parseStart(params.get('start')),
    descending: params.get('descending') === 'true',
    corporateVerification: params.get('corporateVerification') === 'true',
    supportingDocuments: params.get('supportingDocuments') === 'true',
  };
}

/** Writes only what differs from the defaults, so the plain list keeps a plain address. */
export function searchParamsFromFilters(filters: EntityListFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULT_LIST_FILTERS) as (keyof EntityListFilters)[]) {
    if (filters[key] !== DEFAULT_LIST_FILTERS[key]) params.set(key, String(filters[key]));
  }
  return params;
}
