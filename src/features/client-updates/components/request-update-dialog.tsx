import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Modal,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  clientUpdateRequestSchema,
  type ClientUpdateConfig,
  type ClientUpdateRequest,
} from '../../../../contract/client-updates.ts';
import type { LegalEntity } from '../../../../contract/entities.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { mailFailureMessage } from '../mail-failure.ts';
import { clientUpdateQueries } from '../api/client-update-queries.ts';
import { useRequestClientUpdate } from '../api/use-request-client-update.ts';
import { defaultRecipient, recipientEmail, recipientName, type Recipient } from '../recipients.ts';

interface RequestFormValues {
  recepientId: string;
  configId: string;
  domain: string;
  emailSubject: string;
  emailMessage: string;
}

const FORM_FIELDS = new Set<string>([
  'recepientId',
  'configId',
  'domain',
  'emailSubject',
  'emailMessage',
]);

/** The server's request schema over the form's strings (the configuration Select holds its id as text). */
const requestFormSchema = z
  .custom<RequestFormValues>()
  .transform((values) => ({ ...values, configId: Number(values.configId) }))
  .pipe(clientUpdateRequestSchema);

const resolver = zodResolver(requestFormSchema);

export function RequestUpdateDialog({
  opened,
  onClose,
  entity,
  recipients,
}: {
  opened: boolean;
  onClose: () => void;
  entity: LegalEntity;
  recipients: Recipient[];
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Request a client update"
      size="min(64rem, 95vw)"
      yOffset="4vh"
      scrollAreaComponent={ScrollArea.Autosize}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <DialogBody entity={entity} recipients={recipients} onClose={onClose} />
    </Modal>
  );
}

function DialogBody({
  entity,
  recipients,
  onClose,
}: {
  entity: LegalEntity;
  recipients: Recipient[];
  onClose: () => void;
}) {
  const configs = useQuery(clientUpdateQueries.configs());
  if (configs.isPending) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading e-mail configurations">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={120} />
      </Stack>
    );
  }
  if (configs.isError) {
    return (
      <ErrorState
        title="The e-mail configurations could not be loaded"
        message={configs.error.message}
        onRetry={() => void configs.refetch()}
        retrying={configs.isFetching}
      />
    );
  }
  return (
    <RequestUpdateForm
      entity={entity}
      recipients={recipients}
      configs={configs.data.configs}
      domains={configs.data.domains}
      onClose={onClose}
    />
  );
}

function textsOf(config: ClientUpdateConfig | undefined) {
  return {
    emailSubject: config?.defaultSubject ?? '',
    emailMessage: config?.defaultMessage ?? '',
    domain: config?.defaultDomain ?? '',
  };
}

function RequestUpdateForm({
  entity,
  recipients,
  configs,
  domains,
  onClose,
}: {
  entity: LegalEntity;
  recipients: Recipient[];
  configs: ClientUpdateConfig[];
  /** The portal host names the server accepts; the link may point nowhere else. */
  domains: string[];
  onClose: () => void;
}) {
  const firstConfig = configs[0];
  // What the last chosen configuration filled in: a field still equal to it was not edited.
  const prefilled = useRef(textsOf(firstConfig));
  const form = useForm<RequestFormValues, unknown, ClientUpdateRequest>({
    defaultValues: {
      recepientId: defaultRecipient(recipients)?.id ?? '',
      configId: firstConfig ? String(firstConfig.configId) : '',
      ...textsOf(firstConfig),
    },
    resolver,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const requestUpdate = useRequestClientUpdate(entity.id);
  const values = useWatch({ control: form.control });
  const recipient = recipients.find((candidate) => candidate.id === values.recepientId);

  function chooseConfig(configId: string) {
    const config = configs.find((candidate) => String(candidate.configId) === configId);
    const next = textsOf(config);
    for (const field of ['emailSubject', 'emailMessage', 'domain'] as const) {
      if (form.getValues(field) === prefilled.current[field])
        form.setValue(field, next[field], { shouldValidate: form.formState.isSubmitted });
    }
    prefilled.current = next;
  }

  // A second click can arrive before React re-renders the pending button.
  const sending = useRef(false);

  async function submit(request: ClientUpdateRequest) {
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    try {
      const accepted = await requestUpdate.mutateAsync(request);
      const who = recipient ? recipientName(recipient) : accepted.recipientEmail;
      notifications.show({
        color: 'green',
        title: 'Update request sent',
        message: `Update request sent to ${who} (${accepted.recipientEmail}).`,
      });
      onClose();
    } catch (error) {
      sending.current = false;
      if (!(error instanceof ApiError)) {
        setFailure('Something went wrong. Try again.');
        return;
      }
      const unplaced: string[] = [];
      for (const fieldError of error.fieldErrors) {
        if (FORM_FIELDS.has(fieldError.field))
          form.setError(fieldError.field as keyof RequestFormValues, {
            type: 'server',
            message: fieldError.message,
          });
        else unplaced.push(fieldError.message);
      }
      if (error.status === 502) {
        setFailure(
          `${mailFailureMessage(error.message)} The request is listed as failed; Retry it there once the mail server is back.`,
        );
        return;
      }
      setFailure([error.message, ...unplaced].join(' '));
    }
  }

  const { errors } = form.formState;
  const recipientOptions = recipients.map((candidate) => {
    const email = recipientEmail(candidate);
    const relationship = candidate.relationship ? ` (${candidate.relationship})` : '';
    return {
      value: candidate.id,
      label: candidate.loading
        ? `Loading… ${relationship}`.trim()
        : `${recipientName(candidate)}${relationship}${email ? '' : ' — no e-mail address'}`,
      disabled: !candidate.loading && candidate.person !== undefined && email === null,
    };
  });
  const domain = (values.domain ?? '').trim().toLowerCase();
  const toEmail = recipient ? recipientEmail(recipient) : null;

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="recepientId"
            render={({ field, fieldState }) => (
              <Select
                label="Recipient"
                required
                data={recipientOptions}
                allowDeselect={false}
                value={field.value === '' ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="configId"
            render={({ field, fieldState }) => (
              <Select
                label="E-mail configuration"
                required
                data={configs.map((config) => ({
                  value: String(config.configId),
                  label: config.name,
                }))}
                allowDeselect={false}
                description={
                  configs.find((config) => String(config.configId) === field.value)?.description
                }
                value={field.value === '' ? null : field.value}
                onChange={(value) => {
                  field.onChange(value ?? '');
                  if (value) chooseConfig(value);
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="domain"
            render={({ field, fieldState }) => (
              <Select
                label="Client portal domain"
                description="Where the e-mail’s link points: one of this deployment’s client portals"
                required
                data={domains}
                allowDeselect={false}
                value={field.value === '' ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <TextInput
            label="Subject"
            required
            {...form.register('emailSubject')}
            error={errors.emailSubject?.message}
          />
          <Textarea
            label="Message"
            required
            rows={6}
            resize="vertical"
            {...form.register('emailMessage')}
            error={errors.emailMessage?.message}
          />
        </Stack>

        <Paper
          withBorder
          p="md"
          bg="var(--kyc-color-surface-muted)"
          component="section"
          aria-labelledby="client-update-preview"
        >
          <Title order={3} size="h5" id="client-update-preview" mb="sm">
            Preview
          </Title>
          <Stack gap={6}>
            <Text size="sm">
              <Text span fw={600}>
                To:{' '}
              </Text>
              {recipient ? recipientName(recipient) : '—'}
              {toEmail ? ` <${toEmail}>` : ''}
            </Text>
            <Text size="sm">
              <Text span fw={600}>
                Subject:{' '}
              </Text>
              {values.emailSubject?.trim() || '—'}
            </Text>
            <Divider my={4} />
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {values.emailMessage?.trim() || '—'}
            </Text>
            <Text size="sm" mt="xs" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600}>
                Link:{' '}
              </Text>
              <Anchor component="span" size="sm">
                https://{domain || '…'}/client-update/…
              </Anchor>
            </Text>
            <Text size="xs" c="dimmed">
              The link ends with the request’s own id, given when the e-mail is sent.
            </Text>
          </Stack>
        </Paper>
      </SimpleGrid>

      {failure && (
        <Alert
          mt="md"
          color="red"
          icon={<IconAlertCircle size={18} aria-hidden />}
          title="The update request was not sent"
        >
          {failure}
        </Alert>
      )}

      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          type="submit"
          loading={requestUpdate.isPending}
          leftSection={<IconSend size={16} aria-hidden />}
        >
          Send request
        </Button>
      </Group>
    </form>
  );
}
