// core -> tenant isolation: a record is visible only within its organisation, integration and environment.
import type { Scope } from './model';

export const sameScope = (a: Scope, b: Scope): boolean =>
  a.organisationId === b.organisationId &&
  a.integrationId === b.integrationId &&
  a.environment === b.environment;
