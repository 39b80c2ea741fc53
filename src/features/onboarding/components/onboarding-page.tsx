import '@mantine/dropzone/styles.css';
import { Alert, Button, Group, List, Paper, Popover, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconDeviceFloppy } from '@tabler/icons-react';
import { useRef, useState, type ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import type { FieldError } from '../../../../contract/common.ts';
import type { LegalEntityCreate } from '../../../../contract/legal-entity-create.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { useCreateLegalEntity } from '../api/use-create-legal-entity.ts';
import {
  clearDraft,
  loadDraft,
  needsReattaching,
  type OnboardingDraft,
} from '../onboarding-draft.ts';
import {
  emptyOnboardingValues,
  existingEntitySchema,
  formFieldOf,
  onboardingFormSchema,
  onboardingMessages,
  type ExistingEntity,
  type OnboardingFormValues,
} from '../onboarding-form.ts';
import { CorporateInformationSection } from './corporate-information-section.tsx';
import { PrimaryContactSection } from './primary-contact-section.tsx';
import { SupportingDocumentsSection } from './supporting-documents-section.tsx';
import { useDraftAutosave } from './use-draft-autosave.ts';
import { VerificationsSection } from './verifications-section.tsx';

const DUPLICATE_FIELD = 'corporateInformation.registrationNumber';

const resolver = zodResolver(onboardingFormSchema, { error: onboardingMessages });

interface SubmitFailure {
  message: string;
  /** Server field errors no input shows. */
  unplaced: FieldError[];
}

export function OnboardingPage() {
  const navigate = useNavigate();
  const [restored, setRestored] = useState<OnboardingDraft | null>(loadDraft);
  const [idempotencyKey, setIdempotencyKey] = useState(
    () => restored?.idempotencyKey ?? crypto.randomUUID(),
  );
  const [failure, setFailure] = useState<SubmitFailure | null>(null);
  const [existingEntity, setExistingEntity] = useState<ExistingEntity | null>(null);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const form = useForm<OnboardingFormValues, unknown, LegalEntityCreate>({
    defaultValues: restored?.values ?? emptyOnboardingValues(),
    resolver,
  });
  const autosave = useDraftAutosave(form, idempotencyKey);
  const createLegalEntity = useCreateLegalEntity();
  // A second click can arrive before React re-renders the disabled button.
  const submitting = useRef(false);

  async function submit(payload: LegalEntityCreate) {
    if (submitting.current) return;
    submitting.current = true;
    setFailure(null);
    setExistingEntity(null);
    // The key is stored before sending, so a reload after a lost answer retries with the same key.
    autosave.saveNow();
    try {
      const entity = await createLegalEntity.mutateAsync({ payload, idempotencyKey });
      autosave.stop();
      clearDraft();
      notifications.show({
        color: 'green',
        title: 'Legal entity created',
        message: `${entity.corporateInformation.companyName} is onboarded.`,
      });
      void navigate(paths.entity(entity.id));
    } catch (error) {
      submitting.current = false;
      showFailure(error);
    }
  }

  function showFailure(error: unknown) {
    if (!(error instanceof ApiError)) {
      setFailure({ message: 'Something went wrong. Try again.', unplaced: [] });
      return;
    }
    const values = form.getValues();
    const unplaced: FieldError[] = [];
    let focused = false;
    if (error.status === 409) {
      // A duplicate registration belongs on its field, with a link to the entity that holds it.
      const existing = existingEntitySchema.safeParse(error.data);
      setExistingEntity((existing.success && existing.data) || null);
      const placed = error.fieldErrors.find((fieldError) => fieldError.field === DUPLICATE_FIELD);
      form.setError(
        DUPLICATE_FIELD,
        {
          type: 'duplicate',
          message:
            placed?.message ?? 'A legal entity with this registration number already exists.',
        },
        { shouldFocus: true },
      );
      setFailure(null);
      return;
    }
    for (const fieldError of error.fieldErrors) {
      const path = formFieldOf(fieldError.field, values);
      if (path) {
        form.setError(
          path,
          { type: 'server', message: fieldError.message },
          { shouldFocus: !focused },
        );
        focused = true;
      } else {
        unplaced.push(fieldError);
      }
    }
    setFailure({ message: error.message, unplaced });
    // The server keeps only successful answers per key; 422 says this key went with another body.
    if (error.status === 422) setIdempotencyKey(crypto.randomUUID());
  }

  function discardDraft() {
    setConfirmingDiscard(false);
    autosave.stop();
    clearDraft();
    form.reset(emptyOnboardingValues());
    setIdempotencyKey(crypto.randomUUID());
    setRestored(null);
    setFailure(null);
    setExistingEntity(null);
    autosave.start();
    notifications.show({ title: 'Draft discarded', message: 'The form is empty again.' });
  }

  const pending = createLegalEntity.isPending || form.formState.isSubmitting;
  const reattach = restored?.values.supportingDocuments.filter(needsReattaching) ?? [];

  return (
    <Stack gap="lg" maw={1200} pb="xl">
      <div>
        <Title order={1}>Onboard a legal entity</Title>
        <Text c="dimmed">
          Fields marked * are required. Your draft is kept in this browser tab as you type, until
          you create the entity or discard it; attached files keep their name, type and description
          in it, but not their contents.
        </Text>
      </div>

      {restored && (
        <Alert
          color="blue"
          icon={<IconDeviceFloppy size={18} aria-hidden />}
          title="Draft restored"
        >
          <Text size="sm">
            We restored the draft you were working on
            {restored.savedAt ? ` (saved ${formatDate(restored.savedAt)})` : ''}. Use Discard draft
            to start again.
          </Text>
          {reattach.length > 0 && (
            <Text size="sm" mt="xs">
              Attached files are not kept in the draft. Attach them again:{' '}
              {reattach.map((document) => document.fileName).join(', ')}.
            </Text>
          )}
        </Alert>
      )}

      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={(event) => void form.handleSubmit(submit)(event)}
          aria-label="Onboard a legal entity"
        >
          <Stack gap="lg">
            <Section title="Corporate information">
              <CorporateInformationSection existingEntity={existingEntity} />
            </Section>
            <Section title="Primary contact">
              <PrimaryContactSection />
            </Section>
            <Section title="Verifications">
              <VerificationsSection />
            </Section>
            <Section title="Supporting documents">
              <SupportingDocumentsSection />
            </Section>

            {failure && (
              <Alert
                color="red"
                icon={<IconAlertCircle size={18} aria-hidden />}
                title="The legal entity was not created"
              >
                <Text size="sm">{failure.message}</Text>
                {failure.unplaced.length > 0 && (
                  <List size="sm" mt="xs">
                    {failure.unplaced.map((fieldError) => (
                      <List.Item key={`${fieldError.field}:${fieldError.message}`}>
                        {fieldError.field}: {fieldError.message}
                      </List.Item>
                    ))}
                  </List>
                )}
              </Alert>
            )}

            <Group justify="flex-end">
              <Popover
                opened={confirmingDiscard}
                onChange={setConfirmingDiscard}
                trapFocus
                returnFocus
                withArrow
                position="top"
              >
                <Popover.Target>
                  <Button
                    variant="default"
                    onClick={() => setConfirmingDiscard((open) => !open)}
                    disabled={pending}
                  >
                    Discard draft
                  </Button>
                </Popover.Target>
                <Popover.Dropdown aria-labelledby="onboarding-discard-title" maw={300}>
                  <Text size="sm" fw={600} id="onboarding-discard-title">
                    Discard this draft?
                  </Text>
                  <Text size="sm" mb="sm">
                    Everything typed in this form is removed. This cannot be undone.
                  </Text>
                  <Group justify="flex-end" gap="xs">
                    <Button variant="default" size="xs" onClick={() => setConfirmingDiscard(false)}>
                      Keep editing
                    </Button>
                    <Button color="red" size="xs" onClick={discardDraft}>
                      Discard
                    </Button>
                  </Group>
                </Popover.Dropdown>
              </Popover>
              <Button type="submit" loading={pending}>
                Create legal entity
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = `onboarding-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
