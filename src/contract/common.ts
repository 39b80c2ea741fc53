import { z } from 'zod';

/** Calendar date `YYYY-MM-DD` that exists (no 2023-02-30). */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD.')
  .refine(isRealDate, 'This date does not exist.');

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

export const idSchema = z.string().min(1).max(100);

export const emailSchema = z.email('Enter a valid e-mail address.').max(254);

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The success envelope `{code, status, message, data}` around any data shape. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    status: z.literal('success'),
    message: z.string(),
    data,
  });
}

export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  status: z.literal('error'),
  message: z.string(),
  data: z.array(z.unknown()),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Query-string boolean: exactly `true` or `false`. */
export const queryBooleanSchema = z
  .enum(['true', 'false'], { error: 'Use true or false.' })
  .transform((value) => value === 'true');
