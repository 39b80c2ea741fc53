import type { RiskLevelChange, RiskLevelChanged } from '../../contract/decisions.ts';
import { refreshListRecords } from '../entities/read-model/list-records.ts';
import { kycMetaDataOf } from '../entities/mappers.ts';
import { ApiError } from '../http/errors.ts';
import { decisionsRepository } from './repository.ts';
import { assertNothingPending, holdDecision, type DecisionContext } from './service.ts';

/**
 * Whether lowering the risk waits for a second reviewer, and under which rule: a change away from
 * High is held unless FOUR_EYES=off (decisions.md, "Risk level"); raising it never is.
 */
export function riskChangeRuleOf(
  mode: DecisionContext['fourEyes'],
  from: string,
  to: string,
): 'high' | 'all' | undefined {
  if (mode === 'off' || from !== 'High' || to === 'High') return undefined;
  return mode === 'all' ? 'all' : 'high';
}

/**
 * Changes a legal entity's or natural person's risk level, or holds the change for a second
 * reviewer. 404 for an unknown entity, 409 while a decision on it waits. The same level again
 * changes nothing and records nothing.
 */
export async function changeRiskLevel(
  context: DecisionContext,
  entityId: string,
  change: RiskLevelChange,
): Promise<RiskLevelChanged> {
  const at = context.now().toISOString();
  return decisionsRepository(context.db).inTransaction(async (transaction) => {
    const repository = decisionsRepository(transaction);
    const entity = await repository.findEntity(entityId);
    if (!entity) throw new ApiError(404, `No entity has the id ${entityId}.`);
    await assertNothingPending(transaction, entityId);
    const from = entity.risk_level;
    if (from === change.riskLevel) return { state: 'applied', kycMetaData: kycMetaDataOf(entity) };
    const detail = { from, to: change.riskLevel, reason: change.reason };
    const rule = riskChangeRuleOf(context.fourEyes, from, change.riskLevel);
    if (rule === undefined) {
      await repository.setRiskLevel(entityId, change.riskLevel, at);
      await refreshListRecords(transaction, [entityId]);
      await context.audit(transaction, { entityId, detail: { ...detail, state: 'applied' } });
      const changed = await repository.findEntity(entityId);
      if (!changed) throw new Error(`Entity ${entityId} vanished inside its own transaction.`);
      return { state: 'applied', kycMetaData: kycMetaDataOf(changed) };
    }
    const pending = await holdDecision(transaction, {
      entityId,
      kind: 'risk-level',
      payload: detail,
      rule,
      requestedBy: context.caller,
      at,
    });
    await context.audit(transaction, {
      entityId,
      detail: { ...detail, state: 'pending', pendingId: pending.id, rule },
    });
    return { state: 'pending', kycMetaData: kycMetaDataOf(entity), pending };
  });
}
