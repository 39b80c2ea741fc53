import { infiniteQueryOptions } from '@tanstack/react-query';
import { auditEventPageSchema, type AuditFilter } from '../../../contract/audit.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Rows per page of the global log and of an entity's Activity. */
export const AUDIT_LOG_PAGE_SIZE = 50;
export const ENTITY_ACTIVITY_PAGE_SIZE = 20;

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
  /** One entity's events (any account), newest first. */
  entity: (entityId: string) =>
    infiniteQueryOptions({
      queryKey: [...auditQueries.all(), 'entity', entityId] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/audit-events`, {
          query: { limit: ENTITY_ACTIVITY_PAGE_SIZE, cursor: pageParam },
          schema: auditEventPageSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
};
