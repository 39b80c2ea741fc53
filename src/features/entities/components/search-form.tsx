import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import type { FieldError } from '../../../../contract/common.ts';
import {
  emptySearch,
  isSearchField,
  searchQueryFromValues,
  type SearchFormValues,
  type SearchKind,
} from './search-params.ts';

interface SearchFormProps {
  kind: SearchKind;
  /** The values in the address bar; the form follows them (Back, a shared link). */
  values: SearchFormValues;
  onSearch: (query: SearchFormValues) => void;
  onClear: () => void;
  searching: boolean;
  /** Field errors from a 400, shown on their fields. */
  serverErrors: readonly FieldError[];
}

export function SearchForm({
  kind,
  values,
  onSearch,
  onClear,
  searching,
  serverErrors,
}: SearchFormProps) {
  const form = useForm<SearchFormValues>({
    resolver: zodResolver(kind.schema),
    defaultValues: values,
  });
  const { errors } = form.formState;
  const valuesKey = JSON.stringify(values);
  const appliedValuesKey = useRef<string | null>(null);

  useEffect(() => {
    // A hidden tab's effects run again when it is shown; only new values may replace what was typed.
    if (appliedValuesKey.current === valuesKey) return;
    appliedValuesKey.current = valuesKey;
    const next = JSON.parse(valuesKey) as SearchFormValues;
    form.reset(next);
    // A link with a malformed value shows why it was not searched.
    if (Object.values(next).some((value) => value !== '')) void form.trigger();
  }, [valuesKey, form]);

  useEffect(() => {
    for (const error of serverErrors) {
      if (isSearchField(kind, error.field))
        form.setError(error.field, { type: 'server', message: error.message });
    }
  }, [serverErrors, form, kind]);

  const submit = form.handleSubmit((submitted) => {
    const query = searchQueryFromValues(kind, submitted);
    if (Object.keys(query).length === 0) {
      form.setError('root', { type: 'required', message: 'Fill in at least one field to search.' });
      return;
    }
    onSearch(query);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={kind.formLabel}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="md">
          {kind.fields.map((field) => (
            <TextInput
              key={field.name}
              label={field.label}
              description={field.description}
              error={errors[field.name]?.message}
              inputMode={field.inputMode}
              type={field.type ?? 'text'}
              autoComplete="off"
              {...form.register(field.name, {
                onChange: () => form.clearErrors('root'),
              })}
            />
          ))}
        </SimpleGrid>
        {errors.root ? (
          <Text c="red.8" size="sm" role="alert">
            {errors.root.message}
          </Text>
        ) : null}
        <Group gap="sm">
          <Button
            type="submit"
            loading={searching}
            leftSection={<IconSearch size={16} aria-hidden />}
          >
            Search
          </Button>
          <Button
            variant="default"
            onClick={() => {
              form.reset(emptySearch(kind));
              onClear();
            }}
          >
            Clear
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
