// core -> an organisation's sandbox budget (decisions.md §10): processed PDFs it may send to the sandbox
// across all its integrations, counted by the sandbox's table as each PDF is accepted. People and
// agents read it; only the operator sets it.
import { auditEntry } from './back-office/audit';
import { type Actor, requireRole } from './back-office/roles';
import { fail } from './errors';
import type { SandboxBudget } from './model';
import type { Ports } from './ports';
import type { SandboxBudgetJson } from './shapes';

export const DEFAULT_SANDBOX_BUDGET = 3;

export const MAX_SANDBOX_BUDGET = 1_000_000;

export const presentSandboxBudget = (budget: SandboxBudget): SandboxBudgetJson => ({
  organisation_id: budget.organisationId,
  total: budget.total,
  used: budget.used,
  remaining: Math.max(0, budget.total - budget.used),
});

/** The organisation's budget: allowed in all, used, and left. Read from the sandbox, which counts it. */
export const getSandboxBudget = async (sandbox: Pick<Ports, 'sandboxBudgets'>, organisationId: string) =>
  presentSandboxBudget(await sandbox.sandboxBudgets.get(organisationId));

/**
 * `ops set-budget` and the back office's `Save`: the total; what was used stays counted. The caller
 * checks the organisation exists. Audited in the sandbox's log, in the transaction that sets it.
 */
export const setSandboxBudget = async (
  sandbox: Pick<Ports, 'sandboxBudgets' | 'ids' | 'clock'>,
  actor: Actor,
  organisationId: string,
  total: number,
) => {
  requireRole(actor, 'budget.set');
  if (!Number.isInteger(total) || total < 0 || total > MAX_SANDBOX_BUDGET)
    fail('request_invalid', `The budget must be a whole number from 0 to ${MAX_SANDBOX_BUDGET}.`);
  const before = await sandbox.sandboxBudgets.get(organisationId);
  const audit = auditEntry(sandbox, actor, 'sandbox', 'budget.set', organisationId, {
    total_before: before.total,
    total,
  });
  return presentSandboxBudget(await sandbox.sandboxBudgets.set(organisationId, total, [audit]));
};
