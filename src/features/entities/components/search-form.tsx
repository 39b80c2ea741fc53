import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { FieldError } from '../../../contract/common.ts';
import type { LegalEntitySearchQuery } from '../../../contract/entities.ts';
import {
  EMPTY_SEARCH,
  isSearchField,
  SEARCH_FORM_FIELDS,
  searchFormSchema,
  searchQueryFromValues,
  type SearchFormValues,
} from './search-params.ts';

interface SearchFormProps {
  /** The values in the address bar; the form follows them (Back, a shared link). */
  values: SearchFormValues;
  onSearch: (query: LegalEntitySearchQuery) => void;
  onClear: () => void;
  searching: boolean;
  /** Field errors from a 400, shown on their fields. */
  serverErrors: readonly FieldError[];
}

export function SearchForm({
  values,
  onSearch,
  onClear,
  searching,
  serverErrors,
}: SearchFormProps) {
  const form = useForm<SearchFormValues>({
    resolver: zodResolver(searchFormSchema),
    defaultValues: values,
  });
  const { errors } = form.formState;
  const valuesKey = JSON.stringify(values);

  useEffect(() => {
    const next = JSON.parse(valuesKey) as SearchFormValues;
    form.reset(next);
    // A link with a malformed value shows why it was not searched.
    if (Object.values(next).some((value) => value !== '')) void form.trigger();
  }, [valuesKey, form]);

  useEffect(() => {
    for (const error of serverErrors) {
      if (isSearchField(error.field))
        form.setError(error.field, { type: 'server', message: error.message });
    }
  }, [serverErrors, form]);

  const submit = form.handleSubmit((submitted) => {
    const query = searchQueryFromValues(submitted);
    if (Object.keys(query).length === 0) {
      form.setError('root', { type: 'required', message: 'Fill in at least one field to search.' });
      return;
    }
    onSearch(query);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Search legal entities">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="md">
          {SEARCH_FORM_FIELDS.map((field) => (
            <TextInput
              key={field.name}
              label={field.label}
              description={field.description}
              error={errors[field.name]?.message}
              inputMode={field.name === 'duns' ? 'numeric' : undefined}
              type={field.name === 'email' ? 'email' : field.name === 'phone' ? 'tel' : 'text'}
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
              form.reset(EMPTY_SEARCH);
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
