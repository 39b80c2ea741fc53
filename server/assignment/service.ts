import type { Assignment } from '../../contract/assignment.ts';
import type { Db } from '../db/database.ts';
import type { AuditInTransaction } from '../audit/audit-trail.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { ApiError } from '../http/errors.ts';
import { assignmentRepository, type AssignmentStore } from './repository.ts';

/**
 * Assigns the entity to a reviewer account, or to nobody (null), with its `entity.assign` event in
 * the same transaction. 404 for an unknown entity; 400 on `username` for anyone but an enabled
 * reviewer (an auditor only reads, so cannot work a case). In the `gateway` store the caller has
 * checked upstream that the entity exists.
 */
export async function assignEntity(
  db: Db,
  entityId: string,
  username: string | null,
  audit: AuditInTransaction,
  store: AssignmentStore = 'entities',
): Promise<Assignment> {
  const assignee =
    username === null ? null : await assignmentRepository(db, store).reviewerNamed(username);
  if (assignee === undefined) {
    throw new ApiError(400, 'Only a reviewer account can be assigned.', [
      { field: 'username', message: `No enabled reviewer account is named ${username ?? ''}.` },
    ]);
  }
  return db.transaction().execute(async (transaction) => {
    const repository = assignmentRepository(transaction, store);
    const current = await repository.assigneeOf(entityId);
    if (!current) throw new ApiError(404, `No entity has the id ${entityId}.`);
    if (current.assignee !== assignee) {
      await repository.assign(entityId, assignee);
      // The gateway keeps no list records: its lists are the identity service's.
      if (store === 'entities') await refreshListRecords(transaction, [entityId]);
    }
    await audit(transaction, { entityId, detail: { from: current.assignee, to: assignee } });
    return { entityId, assignedUser: assignee, previous: current.assignee };
  });
}
