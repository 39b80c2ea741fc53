import { AUDIT_ACTIONS, type AuditEvent } from '../../../contract/audit.ts';
import { actionLabel, describeActor, describeEvent, outcomeLook } from './audit-event-labels.ts';
import { buildAuditEvent } from './testing/audit-fixtures.ts';

const DOCUMENT_ID = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

const sentence = (action: string, detail: AuditEvent['detail'] = {}) =>
  describeEvent(buildAuditEvent({ action, documentId: DOCUMENT_ID, detail }));

test('actions read as words, unknown ones as they are', () => {
  expect(actionLabel('entity.view')).toBe('Viewed');
  expect(actionLabel('verification.record')).toBe('Recorded review outcome');
  expect(actionLabel('account.rename')).toBe('account.rename');
});

test('a document event names the document by file name, never by its ID', () => {
  expect(sentence('document.view', { fileName: 'a.pdf' })).toBe('Downloaded document a.pdf');
  expect(sentence('document.view')).toBe('Downloaded a document');
  expect(sentence('document.decide', { approved: false, reason: 'scan unreadable' })).toBe(
    'Rejected a document: scan unreadable',
  );
  expect(
    sentence('document.decide', {
      approved: false,
      reason: 'scan unreadable',
      fileName: 'passport.pdf',
    }),
  ).toBe('Rejected document passport.pdf: scan unreadable');
  expect(sentence('document.decide', { approved: true, reason: null, fileName: 'deed.pdf' })).toBe(
    'Approved document deed.pdf',
  );
  expect(sentence('document.list')).toBe('Listed documents');
});

test('review decisions read as what they were', () => {
  expect(
    sentence('verification.record', {
      verificationId: DOCUMENT_ID,
      status: 'Accepted',
      nextReviewDate: '2026-12-05',
      held: false,
    }),
  ).toBe('Recorded outcome Accepted, next review 5 Dec 2026');
  expect(
    sentence('verification.record', {
      pendingId: DOCUMENT_ID,
      status: 'Accepted',
      nextReviewDate: '2026-12-05',
      held: true,
      rule: 'high-risk',
    }),
  ).toBe('Recorded outcome Accepted, next review 5 Dec 2026, waiting for a second reviewer');
  // A person's review as the server records it (server/decisions/person-reviews.ts).
  expect(
    sentence('person.review', {
      reviewId: DOCUMENT_ID,
      kycStatus: 'Rejected',
      nextKYCReview: '2027-01-31',
      reason: 'ID expired',
      state: 'applied',
    }),
  ).toBe('Recorded outcome Rejected, next review 31 Jan 2027: ID expired');
  expect(
    sentence('person.review', {
      kycStatus: 'Accepted',
      nextKYCReview: '2027-01-31',
      reason: 'Checked',
      state: 'pending',
      pendingId: DOCUMENT_ID,
      rule: 'high-risk',
    }),
  ).toBe(
    'Recorded outcome Accepted, next review 31 Jan 2027, waiting for a second reviewer: Checked',
  );
  expect(
    sentence('person.review', {
      kycStatus: 'Accepted',
      nextKYCReview: '2027-01-31',
      reason: 'Checked',
      state: 'confirmed',
      recordedBy: 'alice',
    }),
  ).toBe('Confirmed outcome Accepted, next review 31 Jan 2027 recorded by alice: Checked');
  expect(
    sentence('verification.confirm', {
      pendingId: DOCUMENT_ID,
      status: 'Accepted',
      recordedBy: 'alice',
    }),
  ).toBe('Confirmed outcome Accepted recorded by alice');
  expect(
    sentence('verification.reject', {
      pendingId: DOCUMENT_ID,
      status: 'Accepted',
      reason: 'Ownership not evidenced.',
      recordedBy: 'alice',
    }),
  ).toBe('Rejected held outcome Accepted recorded by alice: Ownership not evidenced.');
  expect(sentence('verification.reject', { pendingId: DOCUMENT_ID, reason: 'No.' })).toBe(
    'Rejected the held outcome: No.',
  );
});

test('requests, notes, creation and risk changes', () => {
  expect(sentence('client-update.request', { recipientName: 'Ada Byrne', configId: 1 })).toBe(
    'Requested a client update from Ada Byrne',
  );
  expect(sentence('client-update.request', { status: 404 })).toBe('Requested a client update');
  expect(sentence('note.add', { noteId: DOCUMENT_ID, length: 12 })).toBe('Added a note');
  expect(sentence('entity.create', { companyName: 'Acme Ltd' })).toBe(
    'Created legal entity Acme Ltd',
  );
  expect(sentence('entity.create', { companyName: 'Acme Ltd', held: true })).toBe(
    'Created legal entity Acme Ltd, acceptance waiting for a second reviewer',
  );
  expect(sentence('entity.risk-level', { from: 'Medium', to: 'High', reason: 'PEP found' })).toBe(
    'Changed risk Medium → High: PEP found',
  );
  expect(sentence('entity.risk-level', { from: 'High', to: 'Low', held: true, reason: 'x' })).toBe(
    'Changed risk High → Low, waiting for a second reviewer: x',
  );
  expect(
    sentence('entity.risk-level', { from: 'High', to: 'Low', state: 'pending', reason: 'x' }),
  ).toBe('Changed risk High → Low, waiting for a second reviewer: x');
  expect(
    sentence('entity.risk-level', {
      from: 'High',
      to: 'Low',
      state: 'confirmed',
      recordedBy: 'alice',
      reason: 'x',
    }),
  ).toBe('Confirmed risk change High → Low recorded by alice: x');
});

test('a decision on the client’s contact corrections reads as what was done, never as its action name', () => {
  // The detail as server/client-updates/portal.ts writes it.
  const changes = [
    { field: 'email', from: 'old@example.com', to: 'new@example.com' },
    { field: 'phone', from: null, to: '+44 20 7946 0999' },
  ];
  expect(
    sentence('client-update.contact', { requestId: DOCUMENT_ID, outcome: 'applied', changes }),
  ).toBe('Applied the client’s contact corrections (e-mail, phone)');
  expect(sentence('client-update.contact', { outcome: 'dismissed', changes: [] })).toBe(
    'Dismissed the client’s contact corrections',
  );
  expect(sentence('client-update.contact')).toBe('Decided on the client’s contact corrections');
  expect(sentence('client-update.contact', { outcome: 'applied', changes })).not.toContain('@');
});

test('every action the server records has words, each its own', () => {
  const labels = AUDIT_ACTIONS.map((action) => actionLabel(action));
  for (const [index, action] of AUDIT_ACTIONS.entries()) {
    expect(labels[index], action).not.toBe(action);
    expect(labels[index], action).not.toMatch(/[a-z]\.[a-z]/);
  }
  // Two actions may read alike only where a reviewer would not tell them apart either.
  const alike = labels.filter((label, index) => labels.indexOf(label) !== index);
  expect(alike).toEqual(['Recorded review outcome']);
});

test('an action this console does not know reads as its label and reason, never an ID', () => {
  const text = sentence('entity.archive', { targetId: DOCUMENT_ID, reason: 'Dissolved' });
  expect(text).toBe('entity.archive: Dissolved');
  expect(text).not.toContain(DOCUMENT_ID);
});

test('actions and fields named like built-in properties read as they are', () => {
  expect(actionLabel('constructor')).toBe('constructor');
  expect(sentence('constructor')).toBe('constructor');
  expect(sentence('toString', { reason: 'Odd' })).toBe('toString: Odd');
  const changes = [{ field: 'constructor', from: 'a', to: 'b' }];
  expect(sentence('client-update.contact', { outcome: 'applied', changes })).toBe(
    'Applied the client’s contact corrections (constructor)',
  );
});

test('an actor reads as who it is: an account by name, a client as the client, never by its ID', () => {
  const actor = (name: string, actorName: string | null = null) =>
    describeActor({ actor: name, actorName });
  expect(actor(`client:${DOCUMENT_ID}`)).toBe('the client (via the update link)');
  expect(actor(`client:${DOCUMENT_ID}`, 'Ada Byrne')).toBe(
    'Ada Byrne (the client, via the update link)',
  );
  expect(actor('rhea', 'Rhea Reviewer')).toBe('Rhea Reviewer (rhea)');
  expect(actor('former')).toBe('former');
  expect(actor('admin-cli')).toBe('an operator (admin command)');
  expect(actor('webhook:kyc')).toBe('the identity service (webhook)');
  expect(actor('anonymous')).toBe('someone not signed in');
  expect(actor('constructor')).toBe('constructor');
  expect(actor('eve\u202e')).toBe('eve\\u202e');
});

test('only a non-success outcome gets a badge', () => {
  expect(outcomeLook('success')).toBeNull();
  expect(outcomeLook('denied')).toEqual({ label: 'Denied', color: 'orange' });
  expect(outcomeLook('failure')).toEqual({ label: 'Failed', color: 'red' });
});
