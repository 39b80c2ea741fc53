import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { AUDIT_ACTIONS, type AuditFilter } from '../../../../contract/audit.ts';
import { actionLabel } from '../audit-event-labels.ts';
import { auditFilterFormSchema, type AuditFilterValues } from '../audit-filter-params.ts';
import { DateField } from '../../../components/date-field.tsx';

const resolver = zodResolver(auditFilterFormSchema);

const EMPTY_FILTER: AuditFilterValues = { actor: '', action: '', entityId: '', from: '', to: '' };

const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({
  value: action,
  // The code too: two actions can read alike, and the table shows each event's code.
  label: `${actionLabel(action)} (${action})`,
}));

interface AuditFilterFormProps {
  /** The filter in the address bar; the form follows it (Back, a shared link). */
  values: AuditFilterValues;
  onApply: (filter: AuditFilter) => void;
  onClear: () => void;
}

export function AuditFilterForm({ values, onApply, onClear }: AuditFilterFormProps) {
  const form = useForm<AuditFilterValues, unknown, AuditFilter>({
    resolver,
    defaultValues: values,
  });
  const { errors } = form.formState;
  const valuesKey = JSON.stringify(values);

  useEffect(() => {
    const next = JSON.parse(valuesKey) as AuditFilterValues;
    form.reset(next);
    // A link with a malformed value says why it shows nothing.
    if (Object.values(next).some((value) => value !== '')) void form.trigger();
  }, [valuesKey, form]);

  const submit = form.handleSubmit(onApply);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Filter the audit log">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="md">
          <TextInput
            label="Actor"
            description="Username"
            autoComplete="off"
            error={errors.actor?.message}
            {...form.register('actor')}
          />
          <Controller
            control={form.control}
            name="action"
            render={({ field }) => (
              <Select
                label="Action"
                description="Type to search"
                placeholder="Any action"
                // An action from a link that is not in the list (a newer admin command) stays shown.
                data={
                  field.value === '' ||
                  ACTION_OPTIONS.some((option) => option.value === field.value)
                    ? ACTION_OPTIONS
                    : [...ACTION_OPTIONS, { value: field.value, label: field.value }]
                }
                searchable
                clearable
                nothingFoundMessage="No action matches"
                value={field.value === '' ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                name={field.name}
                error={errors.action?.message}
              />
            )}
          />
          <TextInput
            label="Entity ID"
            description="Exact ID"
            autoComplete="off"
            error={errors.entityId?.message}
            {...form.register('entityId')}
          />
          <DateField
            control={form.control}
            name="from"
            label="From"
            description="Day (UTC), inclusive"
          />
          <DateField
            control={form.control}
            name="to"
            label="To"
            description="Day (UTC), inclusive"
          />
        </SimpleGrid>
        <Group gap="sm">
          <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
            Apply filters
          </Button>
          <Button
            variant="default"
            onClick={() => {
              // The address may already be empty (an invalid date never reached it): clear here too.
              form.reset(EMPTY_FILTER);
              onClear();
            }}
          >
            Clear filters
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
