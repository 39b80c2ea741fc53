import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name: "entity ID" gives "Copy entity ID". */
  label: string;
}

type CopyState = 'idle' | 'copied' | 'failed';

const FEEDBACK_MS = 1500;

/** An icon button that copies a value, with its result announced to screen readers. */
export function CopyButton({ value, label }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };

  const feedback = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : '';
  return (
    <>
      <Tooltip label={feedback || `Copy ${label}`} withArrow>
        <ActionIcon
          variant="subtle"
          color={state === 'failed' ? 'red' : state === 'copied' ? 'teal' : 'gray'}
          size="sm"
          aria-label={`Copy ${label}`}
          onClick={copy}
        >
          {state === 'copied' ? (
            <IconCheck size={14} aria-hidden />
          ) : state === 'failed' ? (
            <IconX size={14} aria-hidden />
          ) : (
            <IconCopy size={14} aria-hidden />
          )}
        </ActionIcon>
      </Tooltip>
      <VisuallyHidden role="status">{feedback}</VisuallyHidden>
    </>
  );
}
