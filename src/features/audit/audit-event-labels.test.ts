import { actionLabel, describeEvent, outcomeLook } from './audit-event-labels.ts';
import { buildAuditEvent } from './testing/audit-fixtures.ts';

test('actions read as words, unknown ones as they are', () => {
  expect(actionLabel('entity.view')).toBe('Viewed');
  expect(actionLabel('verification.record')).toBe('Recorded review outcome');
  expect(actionLabel('account.rename')).toBe('account.rename');
});

test('a document event names the document by file name, else by ID', () => {
  expect(
    describeEvent(
      buildAuditEvent({ action: 'document.view', documentId: 'd1', detail: { fileName: 'a.pdf' } }),
    ),
  ).toBe('Downloaded document a.pdf');
  expect(describeEvent(buildAuditEvent({ action: 'document.view', documentId: 'd1' }))).toBe(
    'Downloaded document d1',
  );
  expect(
    describeEvent(
      buildAuditEvent({
        action: 'document.decide',
        documentId: 'd1',
        detail: { documentApproved: false },
      }),
    ),
  ).toBe('Rejected document d1');
  expect(describeEvent(buildAuditEvent({ action: 'document.list' }))).toBe('Listed documents');
});

test('only a non-success outcome gets a badge', () => {
  expect(outcomeLook('success')).toBeNull();
  expect(outcomeLook('denied')).toEqual({ label: 'Denied', color: 'orange' });
  expect(outcomeLook('failure')).toEqual({ label: 'Failed', color: 'red' });
});
