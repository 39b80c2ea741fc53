import { Modal, Select, Stack, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  riskLevelChangeSchema,
  type RiskLevelChange,
  type RiskLevelChangeInput,
} from '../../../../contract/decisions.ts';
import { RISK_LEVELS } from '../../../../contract/entities.ts';
import { useChangeRiskLevel } from '../api/decision-queries.ts';
import { serverFailure } from './person-review-dialog.tsx';
import { DecisionFormFooter } from './decision-form-footer.tsx';

const resolver = zodResolver(riskLevelChangeSchema);

export interface ChangeRiskDialogProps {
  opened: boolean;
  onClose: () => void;
  entityId: string;
  riskLevel: string | null | undefined;
  /** The running server's FOUR_EYES setting: lowering a High risk waits unless it is off. */
  fourEyes: 'high' | 'all' | 'off';
  onEntityChanged: () => Promise<unknown>;
}

/** "Change risk" on an entity's page: the new level and why. */
export function ChangeRiskDialog(props: ChangeRiskDialogProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title="Change risk level"
      size="min(32rem, 95vw)"
      yOffset="4vh"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <ChangeRiskForm {...props} />
    </Modal>
  );
}

function ChangeRiskForm({
  onClose,
  entityId,
  riskLevel,
  fourEyes,
  onEntityChanged,
}: ChangeRiskDialogProps) {
  const form = useForm<RiskLevelChangeInput, unknown, RiskLevelChange>({
    defaultValues: {
      riskLevel: (riskLevel ?? 'Medium') as RiskLevelChangeInput['riskLevel'],
      reason: '',
    },
    resolver,
  });
  const change = useChangeRiskLevel(entityId, onEntityChanged);
  const [failure, setFailure] = useState<string | null>(null);
  const chosen = useWatch({ control: form.control, name: 'riskLevel' });
  const sending = useRef(false);
  const heldForSecondReviewer = riskLevel === 'High' && chosen !== 'High' && fourEyes !== 'off';

  async function submit(values: RiskLevelChange) {
    if (sending.current) return;
    sending.current = true;
    setFailure(null);
    try {
      const changed = await change.mutateAsync(values);
      notifications.show({
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
        ...(changed.state === 'applied'
          ? { color: 'green', title: 'Risk level changed', message: `Risk ${values.riskLevel}.` }
          : {
              color: 'blue',
              title: 'Waiting for a second reviewer',
              message: `Lowering the risk to ${values.riskLevel} applies once another reviewer confirms it.`,
            }),
      });
      onClose();
    } catch (error) {
      sending.current = false;
      setFailure(
        serverFailure(error, (field, message) => {
          if (field !== 'riskLevel' && field !== 'reason') return false;
          form.setError(field, { type: 'server', message });
          return true;
        }),
      );
    }
  }

  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)}>
      <Stack gap="sm">
        <Controller
          control={form.control}
          name="riskLevel"
          render={({ field, fieldState }) => (
            <Select
              label="Risk level"
              description={`Now ${riskLevel ?? 'not set'}`}
              required
              data={[...RISK_LEVELS]}
              allowDeselect={false}
              value={field.value}
              onChange={(value) => field.onChange(value ?? field.value)}
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Textarea
          label="Reason"
          required
          rows={3}
          resize="vertical"
          {...form.register('reason')}
          error={errors.reason?.message}
        />
        <DecisionFormFooter
          heldNotice={
            heldForSecondReviewer
              ? 'Lowering a High risk waits for a second reviewer: it applies once another account confirms it.'
              : undefined
          }
          failure={
            failure ? { title: 'The risk level was not changed', message: failure } : undefined
          }
          submitLabel="Change risk"
          submitting={change.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
