// With the one component that needs them, so pages without a date field load no date styles.
import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

/** How every date field shows its date, as the rest of the console does (src/lib/format.ts). */
export const DATE_FIELD_FORMAT = 'D MMM YYYY';

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** 1..12 for a month's name or its abbreviation of three letters or more ("Mar", "Sept"). */
function monthNumber(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTH_NAMES.findIndex((name) => name.startsWith(lower));
  return index === -1 ? undefined : index + 1;
}

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  // 31 Feb and the like roll over into the next month: not a date.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1) return null;
  if (date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * What a person types, as `YYYY-MM-DD`, or null while it is not yet a whole date: "4 Mar 2020",
 * "4 March 2020", "March 4, 2020", "2020-03-04", and "4/3/2020" (day first, as in most of the
 * world; "4.3.2020" and "4-3-2020" too). Years have four digits, so a half-typed year is no date.
 */
export function parseTypedDate(text: string): string | null {
  const value = text.trim().replace(/\s+/g, ' ');
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  if (match) return isoDate(Number(match[3]), Number(match[2]), Number(match[1]));
  match = /^(\d{1,2})(?:st|nd|rd|th)?[ ,]+(?:of )?([a-z]+\.?)[ ,]+(\d{4})$/i.exec(value);
  if (match) {
    const month = monthNumber(match[2] ?? '');
    return month ? isoDate(Number(match[3]), month, Number(match[1])) : null;
  }
  match = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(value);
  if (match) {
    const month = monthNumber(match[1] ?? '');
    return month ? isoDate(Number(match[3]), month, Number(match[2])) : null;
  }
  return null;
}

const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && parseTypedDate(value) !== null;

type DateFieldProps<T extends FieldValues, Submitted extends FieldValues> = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'name' | 'error' | 'form'
> & {
  name: FieldPath<T>;
  /** The form's control; without it, the FormProvider's around the field. */
  control?: Control<T, unknown, Submitted>;
  /** Overrides the field's own error message (e.g. the first of a nested error). */
  error?: string | undefined;
};

/**
 * A date input for react-hook-form: shows and takes "4 Mar 2020" (typed or picked), and gives the
 * form `YYYY-MM-DD`, or '' when emptied, exactly as a `type="date"` input did.
 */
export function DateField<T extends FieldValues, Submitted extends FieldValues = T>({
  name,
  control,
  error,
  ...props
}: DateFieldProps<T, Submitted>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <DateInput
          placeholder="e.g. 4 Mar 2020"
          {...props}
          name={field.name}
          ref={field.ref}
          value={isIsoDate(field.value) ? field.value : null}
          onChange={(next) => field.onChange(next ?? '')}
          onBlur={field.onBlur}
          valueFormat={DATE_FIELD_FORMAT}
          dateParser={parseTypedDate}
          allowDeselect
          error={error ?? fieldState.error?.message}
        />
      )}
    />
  );
}
