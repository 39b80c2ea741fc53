import {
  emptyOnboardingValues,
  type DocumentValues,
  type OnboardingFormValues,
} from './onboarding-form.ts';

export const DRAFT_STORAGE_KEY = 'kyc-desk:onboarding-draft';

export interface OnboardingDraft {
  /** Attached documents keep their name, type, description and size, never their bytes. */
  values: OnboardingFormValues;
  /** One key per draft, so a retried or doubled submission creates one entity. */
  idempotencyKey: string;
  savedAt: string;
}

/**
 * A document without its bytes: sessionStorage is readable by any script of the site and
 * outlives the form, so identity papers and statements stay in memory only.
 */
function withoutBytes(document: DocumentValues): DocumentValues {
  return { ...document, file: '' };
}

/** True when a restored document lost its bytes and must be attached again. */
export function needsReattaching(document: DocumentValues): boolean {
  return document.file === '';
}

/** Keeps every typed value and each attached file's name, type and description, not its bytes. */
export function saveDraft(values: OnboardingFormValues, idempotencyKey: string): OnboardingDraft {
  const draft: OnboardingDraft = {
    values: { ...values, supportingDocuments: values.supportingDocuments.map(withoutBytes) },
    idempotencyKey,
    savedAt: new Date().toISOString(),
  };
  store(draft);
  return draft;
}

function store(draft: OnboardingDraft): void {
  try {
    sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
  } catch {
    // Storage full or blocked: no draft this time; the form itself is unaffected.
  }
}

export function loadDraft(): OnboardingDraft | null {
  let text: string | null;
  try {
    text = sessionStorage.getItem(DRAFT_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const draft = JSON.parse(text) as Partial<OnboardingDraft>;
    if (!draft.values || typeof draft.idempotencyKey !== 'string') return null;
    const empty = emptyOnboardingValues();
    const storedDocuments = Array.isArray(draft.values.supportingDocuments)
      ? draft.values.supportingDocuments
      : [];
    const restored: OnboardingDraft = {
      // Merged over empty values so a draft saved by an older console still fills every input.
      values: {
        ...empty,
        ...draft.values,
        corporateInformation: {
          ...empty.corporateInformation,
          ...draft.values.corporateInformation,
        },
        primaryContact: { ...empty.primaryContact, ...draft.values.primaryContact },
        supportingDocuments: storedDocuments.map(withoutBytes),
      },
      idempotencyKey: draft.idempotencyKey,
      savedAt: typeof draft.savedAt === 'string' ? draft.savedAt : '',
    };
    // An older console kept file bytes in the draft: they go now, not at the next keystroke.
    if (storedDocuments.some((document) => !needsReattaching(document))) store(restored);
    return restored;
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    sessionStorage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
