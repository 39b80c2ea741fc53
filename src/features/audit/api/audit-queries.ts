import { infiniteQueryOptions } from '@tanstack/react-query';
import {
  auditEventPageSchema,
  type AuditFilter,
  type EntityAuditKind,
} from '../../../../contract/audit.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Rows per page of the global log and of an entity's Activity. */
export const AUDIT_LOG_PAGE_SIZE = 50;
export const ENTITY_ACTIVITY_PAGE_SIZE = 20;
/** Views come in larger pages: their count is shown exactly up to this many. */
export const ENTITY_VIEWS_PAGE_SIZE = 100;

/** The audit trail's queries, general to specific: `all()` reaches the log and every Activity. */
export const auditQueries = {
  all: () => ['audit-events'] as const,
  /** The global log (auditors only), newest first, a page per cursor. */
  log: (filter: AuditFilter) =>
    infiniteQueryOptions({
      queryKey: [...auditQueries.all(), 'log', filter] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest('/api/v2/audit-events', {
          query: { ...filter, limit: AUDIT_LOG_PAGE_SIZE, cursor: pageParam },
          schema: auditEventPageSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  /** One entity's events (any account), newest first: its changes, or its views and listings. */
  entity: (entityId: string, kind: Exclude<EntityAuditKind, 'all'>) =>
    infiniteQueryOptions({
      queryKey: [...auditQueries.all(), 'entity', entityId, kind] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/audit-events`, {
          query: {
            kind,
            limit: kind === 'views' ? ENTITY_VIEWS_PAGE_SIZE : ENTITY_ACTIVITY_PAGE_SIZE,
            cursor: pageParam,
          },
          schema: auditEventPageSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
};
