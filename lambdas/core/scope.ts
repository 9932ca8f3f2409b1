// core -> tenant isolation: a record is visible only within its organisation, integration and environment.
import type { Environment, Scope } from './model';

export const sameScope = (a: Scope, b: Scope): boolean =>
  a.organisationId === b.organisationId &&
  a.integrationId === b.integrationId &&
  a.environment === b.environment;

/**
 * Whether a record of `scope` is the organisation's in this environment: what a person may name by id
 * alone (the portal, the MCP server), whichever of its integrations it belongs to.
 */
export const isOrganisations = (scope: Scope, organisationId: string, environment: Environment): boolean =>
  scope.organisationId === organisationId && scope.environment === environment;
