import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { AUDIT_ACTIONS, type AuditFilter } from '../../../contract/audit.ts';
import { actionLabel } from '../audit-event-labels.ts';
import { auditFilterFormSchema, type AuditFilterValues } from '../audit-filter-params.ts';
import { DateField } from '../../../components/date-field.tsx';

const resolver = zodResolver(auditFilterFormSchema);

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
  const actionListId = useId();
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
          <TextInput
            label="Action"
            description="Pick one or type it"
            list={actionListId}
            autoComplete="off"
            error={errors.action?.message}
            {...form.register('action')}
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
        {/* Suggestions, not a closed list: admin commands add `account.*` actions. */}
        <datalist id={actionListId}>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action} label={actionLabel(action)} />
          ))}
        </datalist>
        <Group gap="sm">
          <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
            Apply filters
          </Button>
          <Button variant="default" onClick={onClear}>
            Clear filters
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
