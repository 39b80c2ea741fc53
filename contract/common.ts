import { z } from 'zod';

/** Calendar date `YYYY-MM-DD` that exists (no 2023-02-30). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD.')
  .refine(isRealDate, 'This date does not exist.')
  .meta({ format: 'date' });

function isRealDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, as the interface shows for `dateReceived`. */
export const dateTimeUtcSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'Use the format YYYY-MM-DD HH:MM:SS.');

/** The longest ID the contract allows; a longer one names nothing (404, like an unknown ID). */
export const MAX_ID_LENGTH = 100;

/** An ID as sent: opaque, but never a control character (PostgreSQL refuses U+0000 in text). */
export const idSchema = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .regex(/^\P{Cc}*$/u, 'An ID cannot contain control characters.');

export const emailSchema = z.email('Enter a valid e-mail address.').max(254);

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The success envelope `{code, status, message, data}` around any data shape. Read tolerantly: the
 * real service's `message` may be null and some of its answers add `errors: []` (dropped).
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    status: z.literal('success'),
    message: z.string().nullish(),
    data,
  });
}

/** The error envelope this server sends (and documents): strict, so its own answers stay exact. */
export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  status: z.literal('error'),
  message: z.string(),
  data: z.array(z.unknown()),
  errors: z.array(fieldErrorSchema).optional(),
  /** Seconds to wait before trying again, as the Retry-After header says (503). */
  retryAfter: z.number().int().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Status words an error envelope carries: this server's `error`, the real service's `failure`. */
export const ERROR_ENVELOPE_STATUSES = ['error', 'failure'] as const;

/**
 * Any service's error envelope, read tolerantly (vendor.md): status `error` or `failure`, `data`
 * `[]`, null or absent, the message under `message` or the misspelt `messsage`, `errors` optional.
 * Normalised to the code, the message (null when there is none) and the field errors.
 */
export const serviceErrorEnvelopeSchema = z
  .object({
    code: z.number().int().optional(),
    status: z.enum(ERROR_ENVELOPE_STATUSES),
    message: z.string().nullish(),
    messsage: z.string().nullish(),
    data: z.unknown().optional(),
    errors: z.array(fieldErrorSchema).nullish(),
  })
  .transform((envelope) => ({
    code: envelope.code,
    message: envelope.message?.trim() || envelope.messsage?.trim() || null,
    errors: envelope.errors ?? [],
    data: envelope.data,
  }));
export type ServiceError = z.output<typeof serviceErrorEnvelopeSchema>;

/** Query-string boolean: exactly `true` or `false`. */
export const queryBooleanSchema = z
  .enum(['true', 'false'], { error: 'Use true or false.' })
  .transform((value) => value === 'true');
