import { Modal, ScrollArea, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  defaultNextReviewDate,
  recordVerificationSchema,
  reviewIntervalText,
  type RecordVerification,
  type RecordVerificationInput,
} from '../../../../contract/decisions.ts';
import { KYC_STATUSES } from '../../../../contract/entities.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useRecordVerification } from '../api/decision-queries.ts';
import { DecisionFormFooter, HELD_OUTCOME_NOTICE } from './decision-form-footer.tsx';
import { formatDate } from '../../../lib/format.ts';
import { DateField } from '../../../components/date-field.tsx';

interface OutcomeFormValues {
  verificationStatus: string;
  verificationDate: string;
  verificationSource: string;
  businessStatement: string;
  /** One issue per line. */
  issues: string;
  nextReviewDate: string;
}

const FORM_FIELDS: Record<string, keyof OutcomeFormValues> = {
  verificationStatus: 'verificationStatus',
  verificationDate: 'verificationDate',
  verificationSource: 'verificationSource',
  businessStatement: 'businessStatement',
  verificationIssues: 'issues',
  nextReviewDate: 'nextReviewDate',
};

/** The server's schema over the form's strings: issues are the textarea's non-empty lines. */
const outcomeFormSchema = z
  .custom<OutcomeFormValues>()
  .transform(({ issues, verificationStatus, ...values }): RecordVerificationInput => ({
    ...values,
    // The schema refuses anything but a KYC status; the Select offers only those.
    verificationStatus: verificationStatus as RecordVerificationInput['verificationStatus'],
    verificationIssues: issues
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  }))
  .pipe(recordVerificationSchema);

const resolver = zodResolver(outcomeFormSchema);

/** Today as the server counts review dates: the UTC calendar day (as daysUntil does). */
const todayUtc = () => new Date().toISOString().slice(0, 10);

export interface RecordOutcomeDialogProps {
  opened: boolean;
  onClose: () => void;
  entityId: string;
  riskLevel: string | null | undefined;
  /** Whether an Accepted outcome here waits for a second reviewer (capabilities' fourEyes). */
  acceptNeedsSecondReviewer: boolean;
  onEntityChanged: () => Promise<unknown>;
}

export function RecordOutcomeDialog(props: RecordOutcomeDialogProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title="Record review outcome"
      size="min(48rem, 95vw)"
      yOffset="4vh"
      scrollAreaComponent={ScrollArea.Autosize}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <OutcomeForm {...props} />
    </Modal>
  );
}

function OutcomeForm({
  onClose,
  entityId,
  riskLevel,
  acceptNeedsSecondReviewer,
  onEntityChanged,
}: RecordOutcomeDialogProps) {
  const today = todayUtc();
  const form = useForm<OutcomeFormValues, unknown, RecordVerification>({
    defaultValues: {
      verificationStatus: '',
      verificationDate: today,
      verificationSource: '',
      businessStatement: '',
      issues: '',
      nextReviewDate: defaultNextReviewDate(today, riskLevel),
    },
    resolver,
  });
  const record = useRecordVerification(entityId, onEntityChanged);
  const [failure, setFailure] = useState<string | null>(null);
  const status = useWatch({ control: form.control, name: 'verificationStatus' });
  // A second click can arrive before React re-renders the pending button.
  const sending = useRef(false);

  async function submit(outcome: RecordVerification) {
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    try {
      const recorded = await record.mutateAsync(outcome);
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        ...(recorded.state === 'applied'
          ? {
              color: 'green',
              title: 'Outcome recorded',
              message: `Status ${recorded.kycStatus}; next review ${formatDate(recorded.nextKYCReview)}.`,
            }
          : {
              color: 'blue',
              title: 'Waiting for a second reviewer',
              message: 'Another reviewer must confirm this decision before it applies.',
            }),
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
        const field = FORM_FIELDS[fieldError.field.split('.')[0] ?? ''];
        if (field) form.setError(field, { type: 'server', message: fieldError.message });
        else unplaced.push(`${fieldError.field}: ${fieldError.message}`);
      }
      setFailure([error.message, ...unplaced].join(' '));
    }
  }

  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="verificationStatus"
            render={({ field, fieldState }) => (
              <Select
                label="Outcome"
                required
                placeholder="Choose the outcome"
                data={[...KYC_STATUSES]}
                allowDeselect={false}
                value={field.value === '' ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <DateField
            control={form.control}
            name="verificationDate"
            label="Verification date"
            required
          />
          <TextInput
            label="Source"
            description="Where the information was checked, e.g. a company registry"
            required
            {...form.register('verificationSource')}
            error={errors.verificationSource?.message}
          />
          <DateField
            control={form.control}
            name="nextReviewDate"
            label="Next review date"
            required
            description={reviewIntervalText(riskLevel, 'today')}
          />
        </SimpleGrid>
        <Textarea
          label="Business statement"
          rows={3}
          resize="vertical"
          {...form.register('businessStatement')}
          error={errors.businessStatement?.message}
        />
        <Textarea
          label="Issues"
          description="One per line; leave empty when there are none"
          rows={2}
          resize="vertical"
          {...form.register('issues')}
          error={errors.issues?.message}
        />
        <DecisionFormFooter
          heldNotice={
            status === 'Accepted' && acceptNeedsSecondReviewer ? HELD_OUTCOME_NOTICE : undefined
          }
          failure={
            failure ? { title: 'The outcome was not recorded', message: failure } : undefined
          }
          submitLabel="Record outcome"
          submitting={record.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
