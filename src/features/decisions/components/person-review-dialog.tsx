import { Modal, Select, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  defaultNextReviewDate,
  personReviewInputSchema,
  reviewIntervalText,
  type PersonReviewInput,
  type PersonReviewRequest,
} from '../../../../contract/decisions.ts';
import { KYC_STATUSES } from '../../../../contract/entities.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useRecordPersonReview } from '../api/decision-queries.ts';
import { DecisionFormFooter, HELD_OUTCOME_NOTICE } from './decision-form-footer.tsx';
import { formatDate } from '../../../lib/format.ts';
import { DateField } from '../../../components/date-field.tsx';

/** Today as the server counts review dates: the UTC calendar day. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

const FIELDS = ['kycStatus', 'nextKYCReview', 'reason'] as const;

/** The server's schema, and the server's date rule (after today, UTC) so the form says it first. */
const reviewFormSchema = z.strictObject({
  ...personReviewInputSchema.shape,
  nextKYCReview: personReviewInputSchema.shape.nextKYCReview.refine(
    (date) => date > todayUtc(),
    'The next review must be after today.',
  ),
});
const resolver = zodResolver(reviewFormSchema);

export interface PersonReviewDialogProps {
  opened: boolean;
  onClose: () => void;
  personId: string;
  riskLevel: string | null | undefined;
  /** Whether an Accepted outcome here waits for a second reviewer (capabilities' fourEyes). */
  acceptNeedsSecondReviewer: boolean;
  onEntityChanged: () => Promise<unknown>;
}

/** "Record outcome" on a natural person's page: status, next review and why. */
export function PersonReviewDialog(props: PersonReviewDialogProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title="Record review outcome"
      size="min(40rem, 95vw)"
      yOffset="4vh"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <PersonReviewForm {...props} />
    </Modal>
  );
}

function PersonReviewForm({
  onClose,
  personId,
  riskLevel,
  acceptNeedsSecondReviewer,
  onEntityChanged,
}: PersonReviewDialogProps) {
  const today = todayUtc();
  const form = useForm<PersonReviewInput, unknown, PersonReviewRequest>({
    defaultValues: {
      kycStatus: '' as PersonReviewInput['kycStatus'],
      nextKYCReview: defaultNextReviewDate(today, riskLevel),
      reason: '',
    },
    resolver,
  });
  const record = useRecordPersonReview(personId, onEntityChanged);
  const [failure, setFailure] = useState<string | null>(null);
  const status = useWatch({ control: form.control, name: 'kycStatus' });
  // A second click can arrive before React re-renders the pending button.
  const sending = useRef(false);

  async function submit(review: PersonReviewRequest) {
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    try {
      const recorded = await record.mutateAsync(review);
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        ...(recorded.state === 'applied'
          ? {
              color: 'green',
              title: 'Outcome recorded',
              message: `Status ${recorded.review.kycStatus}; next review ${formatDate(recorded.review.nextKYCReview)}.`,
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
      setFailure(
        serverFailure(error, (field, message) => {
          const known = FIELDS.find((name) => name === field);
          if (!known) return false;
          form.setError(known, { type: 'server', message });
          return true;
        }),
      );
    }
  }

  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="kycStatus"
            render={({ field, fieldState }) => (
              <Select
                label="Outcome"
                required
                placeholder="Choose the outcome"
                data={[...KYC_STATUSES]}
                allowDeselect={false}
                value={field.value === ('' as string) ? null : field.value}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error && 'Choose the outcome.'}
              />
            )}
          />
          <DateField
            control={form.control}
            name="nextKYCReview"
            label="Next review date"
            required
            description={reviewIntervalText(riskLevel, 'today')}
          />
        </SimpleGrid>
        <Textarea
          label="Reason"
          description="What was checked, and why this outcome"
          required
          rows={3}
          resize="vertical"
          {...form.register('reason')}
          error={errors.reason?.message}
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

/**
 * The message for a failed save: field errors go to their fields through `place` (false when the
 * form has no such field), the rest is said in the alert.
 */
export function serverFailure(
  error: unknown,
  place: (field: string, message: string) => boolean,
): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Try again.';
  const unplaced = error.fieldErrors
    .filter((fieldError) => !place(fieldError.field.split('.')[0] ?? '', fieldError.message))
    .map((fieldError) => `${fieldError.field}: ${fieldError.message}`);
  return [error.message, ...unplaced].join(' ');
}
