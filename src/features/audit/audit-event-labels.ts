import type { AuditEvent } from '../../contract/audit.ts';

/** What each action reads as to a reviewer; the target follows where the event names one. */
const ACTION_LABELS: Record<string, string> = {
  'auth.sign-in': 'Signed in',
  'auth.sign-in-failed': 'Failed to sign in',
  'entity.list': 'Listed entities',
  'entity.search': 'Searched entities',
  'entity.view': 'Viewed',
  'entity.create': 'Created',
  'document.list': 'Listed documents',
  'document.view': 'Downloaded document',
  'client-update.request': 'Requested a client update',
  'verification.record': 'Recorded review outcome',
  'verification.confirm': 'Confirmed review outcome',
  'verification.reject': 'Rejected review outcome',
  'document.decide': 'Decided on document',
  'note.add': 'Added a note',
  'audit.read': 'Read the audit log',
  'audit.export': 'Exported the audit log',
  'account.create': 'Created an account',
  'account.set-role': 'Changed an account’s role',
};

/** `entity.view` → "Viewed"; an action this console does not know yet shows as it is. */
export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

function detailText(event: AuditEvent, key: string): string | undefined {
  const value = event.detail[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The action with what it acted on: "Downloaded document passport.pdf", "Approved document …". */
export function describeEvent(event: AuditEvent): string {
  const document = detailText(event, 'fileName') ?? event.documentId;
  if (event.action === 'document.decide' && typeof event.detail.documentApproved === 'boolean') {
    const verb = event.detail.documentApproved ? 'Approved document' : 'Rejected document';
    return document ? `${verb} ${document}` : verb;
  }
  if (event.action.startsWith('document.') && event.action !== 'document.list' && document) {
    return `${actionLabel(event.action)} ${document}`;
  }
  const status = detailText(event, 'verificationStatus');
  if (event.action === 'verification.record' && status) {
    return `${actionLabel(event.action)}: ${status}`;
  }
  return actionLabel(event.action);
}

export interface OutcomeLook {
  label: string;
  color: string;
}

/** A badge for anything but success: a refused or failed attempt is what an auditor looks for. */
export function outcomeLook(outcome: string): OutcomeLook | null {
  if (outcome === 'success') return null;
  if (outcome === 'denied') return { label: 'Denied', color: 'orange' };
  if (outcome === 'failure') return { label: 'Failed', color: 'red' };
  return { label: outcome, color: 'gray' };
}
