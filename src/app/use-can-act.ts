import { useCapabilities } from '../features/capabilities/api/capabilities-queries.ts';

/**
 * Whether the signed-in account may change anything (decisions.md, "Roles"): reviewers act,
 * auditors only read. False until the role is known, so no action flashes up for an auditor.
 */
export function useCanAct(): boolean {
  return useCapabilities()?.account.role === 'reviewer';
}
