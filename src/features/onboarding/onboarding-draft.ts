import {
  emptyOnboardingValues,
  type DocumentValues,
  type OnboardingFormValues,
} from './onboarding-form.ts';

export const DRAFT_STORAGE_KEY = 'kyc-desk:onboarding-draft';

/** Base64 characters of attached files a draft keeps; sessionStorage holds about 5 MB per site. */
export const DRAFT_FILE_BUDGET = 2_000_000;

export interface OnboardingDraft {
  values: OnboardingFormValues;
  /** One key per draft, so a retried or doubled submission creates one entity. */
  idempotencyKey: string;
  /** Documents left out of the draft because their contents were too large to keep. */
  droppedFiles: string[];
  savedAt: string;
}

/** Keeps every typed value, and attached files only while their contents fit the budget. */
export function saveDraft(values: OnboardingFormValues, idempotencyKey: string): OnboardingDraft {
  const kept: DocumentValues[] = [];
  const droppedFiles: string[] = [];
  let budget = DRAFT_FILE_BUDGET;
  for (const document of values.supportingDocuments) {
    if (document.file.length <= budget) {
      kept.push(document);
      budget -= document.file.length;
    } else {
      droppedFiles.push(document.fileName);
    }
  }
  const draft: OnboardingDraft = {
    values: { ...values, supportingDocuments: kept },
    idempotencyKey,
    droppedFiles,
    savedAt: new Date().toISOString(),
  };
  if (store(draft)) return draft;
  // Storage is full (other data of this site): keep the typed values without any file.
  const withoutFiles: OnboardingDraft = {
    ...draft,
    values: { ...values, supportingDocuments: [] },
    droppedFiles: values.supportingDocuments.map((document) => document.fileName),
  };
  store(withoutFiles);
  return withoutFiles;
}

function store(draft: OnboardingDraft): boolean {
  try {
    sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(draft));
    return true;
  } catch {
    return false;
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
    return {
      // Merged over empty values so a draft saved by an older console still fills every input.
      values: {
        ...empty,
        ...draft.values,
        corporateInformation: {
          ...empty.corporateInformation,
          ...draft.values.corporateInformation,
        },
        primaryContact: { ...empty.primaryContact, ...draft.values.primaryContact },
      },
      idempotencyKey: draft.idempotencyKey,
      droppedFiles: Array.isArray(draft.droppedFiles) ? draft.droppedFiles : [],
      savedAt: typeof draft.savedAt === 'string' ? draft.savedAt : '',
    };
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
