import { z } from 'zod';
import { auditFilterSchema, type AuditFilter } from '../../../contract/audit.ts';

export const AUDIT_FILTER_FIELDS = ['actor', 'action', 'entityId', 'from', 'to'] as const;
type AuditFilterField = (typeof AUDIT_FILTER_FIELDS)[number];

/** The filter form as typed: every field a string, empty meaning "any". */
export type AuditFilterValues = Record<AuditFilterField, string>;

/** A typed field: empty means "any", anything else must pass the contract's check. */
function typed<T extends z.ZodType<unknown, string | undefined>>(check: T) {
  return z
    .string()
    .transform((value) => (value.trim() === '' ? undefined : value))
    .pipe(check);
}

/** The contract's filter, read from what was typed, plus the one check across fields. */
export const auditFilterFormSchema = z
  .object({
    actor: typed(auditFilterSchema.shape.actor),
    action: typed(auditFilterSchema.shape.action),
    entityId: typed(auditFilterSchema.shape.entityId),
    from: typed(auditFilterSchema.shape.from),
    to: typed(auditFilterSchema.shape.to),
  })
  .refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, {
    path: ['to'],
    message: 'The end date must not be before the start date.',
  });

export function valuesFromSearchParams(params: URLSearchParams): AuditFilterValues {
  return {
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    entityId: params.get('entityId') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
}

/** The filter an address asks for, or null when a value in it is malformed (nothing is fetched). */
export function filterFromValues(values: AuditFilterValues): AuditFilter | null {
  const parsed = auditFilterFormSchema.safeParse(values);
  return parsed.success ? withoutEmpty(parsed.data) : null;
}

function withoutEmpty(filter: AuditFilter): AuditFilter {
  const result: AuditFilter = {};
  for (const field of AUDIT_FILTER_FIELDS) {
    const value = filter[field];
    if (value !== undefined) result[field] = value;
  }
  return result;
}

/** The address of a filter: the set fields only, in a fixed order, so one filter has one link. */
export function searchParamsFromFilter(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of AUDIT_FILTER_FIELDS) {
    const value = filter[field];
    if (value !== undefined) params.set(field, value);
  }
  return params;
}
