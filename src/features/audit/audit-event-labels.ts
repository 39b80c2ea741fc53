import { clientRecipientOf, type AuditAction, type AuditEvent } from '../../../contract/audit.ts';
import { withVisibleControls } from '../../../contract/visible-text.ts';
import { formatAccount, formatDate } from '../../lib/format.ts';

/** What each action reads as to a reviewer; the target follows where the event names one. */
const ACTION_LABELS: Record<AuditAction, string> = {
  'auth.sign-in': 'Signed in',
  'auth.sign-in-failed': 'Failed to sign in',
  'auth.sign-out': 'Signed out',
  'entity.list': 'Listed entities',
  'entity.index': 'Browsed the entity list',
  'entity.export': 'Exported the entity list',
  'entity.search': 'Searched entities',
  'entity.view': 'Viewed',
  'entity.create': 'Created',
  'entity.risk-level': 'Changed risk level',
  'entity.assign': 'Changed the assignee',
  'document.list': 'Listed documents',
  'document.view': 'Downloaded document',
  'client-update.request': 'Requested a client update',
  'client-update.open': 'Client opened the update request',
  'client-update.submit': 'Client responded to an update request',
  'client-update.contact': 'Decided on the client’s contact corrections',
  'client-update.review': 'Marked a client response reviewed',
  'client-update.remind': 'Sent a client-update reminder',
  'webhook.receive': 'Event from the identity service',
  'review.export': 'Exported the review queue',
  'verification.record': 'Recorded review outcome',
  'verification.confirm': 'Confirmed review outcome',
  'verification.reject': 'Rejected review outcome',
  'person.review': 'Recorded review outcome',
  'document.decide': 'Decided on document',
  'note.add': 'Added a note',
  'audit.read': 'Read the audit log',
  'audit.export': 'Exported the audit log',
  'stats.read': 'Read the overview’s counts',
  'request.refused': 'Refused a request',
  'account.create': 'Created an account',
  'account.reset-password': 'Reset an account’s password',
  'account.disable': 'Disabled an account',
  'account.revoke-sessions': 'Signed an account out everywhere',
  'account.set-role': 'Changed an account’s role',
  'account.list': 'Listed the accounts',
  'api-key.reset': 'Reset an account’s API key',
  'client-config.set': 'Saved a client-update configuration',
  'client-config.remove': 'Removed a client-update configuration',
  'client-config.list': 'Listed the client-update configurations',
  'audit.verify': 'Verified the audit trail’s chain',
  'audit.prune': 'Removed audit events past retention',
  'keys.rotate': 'Rotated the document keys',
  'db.backup': 'Backed up the database',
  'db.restore': 'Restored the database from a backup',
  'db.copy-to-postgres': 'Copied the database to PostgreSQL',
};

const isAuditAction = (action: string): action is AuditAction =>
  Object.hasOwn(ACTION_LABELS, action);

/** `entity.view` → "Viewed"; an action this console does not know yet shows as it is. */
export function actionLabel(action: string): string {
  return isAuditAction(action) ? ACTION_LABELS[action] : action;
}

function detailText(event: AuditEvent, key: string): string | undefined {
  const value = event.detail[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** " recorded by alice" when the event names who recorded the decision it closes. */
function recordedBy(event: AuditEvent): string {
  const author = detailText(event, 'recordedBy');
  return author ? ` recorded by ${author}` : '';
}

/** ": scan unreadable" when the event carries a reason. */
function because(event: AuditEvent): string {
  const reason = detailText(event, 'reason');
  return reason ? `: ${reason}` : '';
}

/** Held for a second reviewer: `held: true` on outcomes, `state: 'pending'` on reviews and risk. */
function isHeld(event: AuditEvent): boolean {
  return event.detail.held === true || event.detail.state === 'pending';
}

/** A held person review or risk change that a second reviewer has now applied. */
const isConfirmation = (event: AuditEvent) => event.detail.state === 'confirmed';

/** "Recorded outcome Accepted, next review 5 Dec 2026", held ones saying they wait. */
function recordedOutcome(event: AuditEvent): string {
  const status =
    detailText(event, 'status') ??
    detailText(event, 'verificationStatus') ??
    detailText(event, 'kycStatus');
  const nextReview = detailText(event, 'nextReviewDate') ?? detailText(event, 'nextKYCReview');
  const verb = isConfirmation(event) ? 'Confirmed' : 'Recorded';
  let sentence = status ? `${verb} outcome ${status}` : actionLabel(event.action);
  if (nextReview) sentence += `, next review ${formatDate(nextReview)}`;
  if (isConfirmation(event)) sentence += recordedBy(event);
  if (isHeld(event)) sentence += ', waiting for a second reviewer';
  return sentence + because(event);
}

function documentDecision(event: AuditEvent): string {
  const approved = event.detail.approved ?? event.detail.documentApproved;
  if (typeof approved !== 'boolean') return actionLabel(event.action);
  const fileName = detailText(event, 'fileName');
  const verb = approved ? 'Approved' : 'Rejected';
  return `${verb} ${fileName ? `document ${fileName}` : 'a document'}${because(event)}`;
}

const CONTACT_FIELD_WORDS = new Map([
  ['email', 'e-mail'],
  ['phone', 'phone'],
  ['address', 'address'],
]);

/** "Applied the client’s contact corrections (e-mail, phone)"; the values stay in the detail. */
function contactDecision(event: AuditEvent): string {
  const outcome = detailText(event, 'outcome');
  if (outcome !== 'applied' && outcome !== 'dismissed') return actionLabel(event.action);
  const changes = Array.isArray(event.detail.changes) ? (event.detail.changes as unknown[]) : [];
  const fields = changes.flatMap((change) => {
    const field = (change as { field?: unknown } | null)?.field;
    return typeof field === 'string' ? [CONTACT_FIELD_WORDS.get(field) ?? field] : [];
  });
  const verb = outcome === 'applied' ? 'Applied' : 'Dismissed';
  return `${verb} the client’s contact corrections${fields.length > 0 ? ` (${fields.join(', ')})` : ''}`;
}

/** What each action's detail lets a sentence say; the rest fall back to the action's label. */
const SENTENCES: Record<string, (event: AuditEvent) => string> = {
  'verification.record': recordedOutcome,
  'person.review': recordedOutcome,
  'verification.confirm': (event) => {
    const status = detailText(event, 'status');
    return `Confirmed ${status ? `outcome ${status}` : 'the held outcome'}${recordedBy(event)}`;
  },
  'verification.reject': (event) => {
    const status = detailText(event, 'status');
    return `Rejected ${status ? `held outcome ${status}` : 'the held outcome'}${recordedBy(event)}${because(event)}`;
  },
  'document.decide': documentDecision,
  'document.view': (event) => {
    const fileName = detailText(event, 'fileName');
    return fileName ? `Downloaded document ${fileName}` : 'Downloaded a document';
  },
  'client-update.request': (event) => {
    const recipient = detailText(event, 'recipientName');
    return recipient ? `Requested a client update from ${recipient}` : 'Requested a client update';
  },
  'client-update.contact': contactDecision,
  'client-update.remind': (event) => {
    const recipient = detailText(event, 'recipientName');
    return recipient
      ? `Sent a client-update reminder to ${recipient}`
      : 'Sent a client-update reminder';
  },
  'webhook.receive': (event) => {
    const name = detailText(event, 'event') ?? detailText(event, 'eventType');
    return name ? `Event from the identity service: ${name}` : 'Event from the identity service';
  },
  'entity.create': (event) => {
    const name = detailText(event, 'companyName');
    const held = event.detail.held === true ? ', acceptance waiting for a second reviewer' : '';
    return `Created ${name ? `legal entity ${name}` : 'the entity'}${held}`;
  },
  'entity.risk-level': (event) => {
    const from = detailText(event, 'from');
    const to = detailText(event, 'to');
    const change = from && to ? ` ${from} → ${to}` : to ? ` to ${to}` : ' level';
    const held = isHeld(event) ? ', waiting for a second reviewer' : '';
    if (isConfirmation(event))
      return `Confirmed risk change${change}${recordedBy(event)}${because(event)}`;
    return `Changed risk${change}${held}${because(event)}`;
  },
};

/** A refused or failed call: what was tried and the server's answer (its status in the detail). */
function refusal(event: AuditEvent): string | undefined {
  const status = event.detail.status;
  if (event.outcome === 'success' || typeof status !== 'number') return undefined;
  const answer = detailText(event, 'message') ?? detailText(event, 'reason');
  return `${actionLabel(event.action)}, refused (${status})${answer ? `: ${answer}` : ''}`;
}

/**
 * The action as a sentence: "Rejected document passport.pdf: scan unreadable", never an ID; its
 * hidden characters written as escapes, as every text an event carries is shown.
 */
export function describeEvent(event: AuditEvent): string {
  // Own keys only: an action named `constructor` must not find Object's.
  const sentence = Object.hasOwn(SENTENCES, event.action) ? SENTENCES[event.action] : undefined;
  return withVisibleControls(
    refusal(event) ?? (sentence ? sentence(event) : actionLabel(event.action) + because(event)),
  );
}

/** Actors that are no account: the admin CLI and the identity service's webhooks (server/gateway/webhooks.ts). */
const SYSTEM_ACTORS = new Map([
  ['admin-cli', 'an operator (admin command)'],
  ['webhook:kyc', 'the identity service (webhook)'],
  ['anonymous', 'someone not signed in'],
]);

/**
 * Who acted, as a reviewer reads it: "Rhea Reviewer (rhea)", "Ada Byrne (the client, via the
 * update link)", never a client's bare `client:<id>`; hidden characters written as escapes.
 */
export function describeActor(event: Pick<AuditEvent, 'actor' | 'actorName'>): string {
  const name = event.actorName?.trim();
  if (clientRecipientOf(event.actor) !== undefined) {
    return withVisibleControls(
      name ? `${name} (the client, via the update link)` : 'the client (via the update link)',
    );
  }
  return withVisibleControls(SYSTEM_ACTORS.get(event.actor) ?? formatAccount(event.actor, name));
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
  return { label: withVisibleControls(outcome), color: 'gray' };
}
