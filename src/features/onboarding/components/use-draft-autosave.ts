import { useCallback, useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { LegalEntityCreate } from '../../../../contract/legal-entity-create.ts';
import { clearDraft, saveDraft } from '../onboarding-draft.ts';
import { emptyOnboardingValues, type OnboardingFormValues } from '../onboarding-form.ts';

const SAVE_DELAY_MS = 400;
const EMPTY_VALUES = JSON.stringify(emptyOnboardingValues());

/**
 * Saves the form to sessionStorage a moment after each change, and at once when the page is
 * hidden or the form unmounts (a reload, or a sign-in after the session expired).
 */
export function useDraftAutosave(
  form: UseFormReturn<OnboardingFormValues, unknown, LegalEntityCreate>,
  idempotencyKey: string,
) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const key = useRef(idempotencyKey);
  const active = useRef(true);

  useEffect(() => {
    key.current = idempotencyKey;
  }, [idempotencyKey]);

  const saveNow = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    if (!active.current) return;
    const values = form.getValues();
    // An untouched form is no draft.
    if (JSON.stringify(values) === EMPTY_VALUES) clearDraft();
    else saveDraft(values, key.current);
  }, [form]);

  const flush = useCallback(() => {
    if (timer.current !== null) saveNow();
  }, [saveNow]);

  useEffect(() => {
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: () => {
        if (!active.current) return;
        if (timer.current !== null) clearTimeout(timer.current);
        timer.current = setTimeout(saveNow, SAVE_DELAY_MS);
      },
    });
    window.addEventListener('pagehide', flush);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [form, saveNow, flush]);

  return {
    saveNow,
    /** Stops saving (the draft was submitted or discarded) until start() is called. */
    stop: useCallback(() => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
      active.current = false;
    }, []),
    start: useCallback(() => {
      active.current = true;
    }, []),
  };
}
