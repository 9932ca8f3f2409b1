// core -> the ports of who calls: access tokens, rate limits and attempt delays, API keys, sandbox budgets, organisations, people and their grants.

import type { AuditEntry } from '../back-office/audit';
import type {
  ApiKeyRecord,
  Environment,
  Integration,
  Micros,
  Organisation,
  Page,
  SandboxBudget,
} from '../model';
import type { Person } from '../people/person';

/**
 * Issues access tokens (JWT) signed with this environment's private key: only `POST /v1/token` is wired
 * with one that can sign (deployed, the one function allowed to use the key in KMS).
 */
export interface TokenIssuer {
  issue(claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }>;
}

/** Checks access tokens with this environment's public key: it can tell a token good, never make one. */
export interface TokenVerifier {
  verify(token: string): Promise<AccessTokenCheck>;
}

export interface AccessTokenClaims {
  organisationId: string;
  integrationId: string;
  environment: Environment;
  apiKeyId: string;
}

export type AccessTokenCheck =
  | { valid: true; claims: AccessTokenClaims }
  | { valid: false; reason: 'expired' | 'invalid' | 'wrong_environment' };

/** Token-bucket rate limiting shared by every instance of a host. */
export interface RateLimiter {
  /** Takes one token from `bucket` (refilled at `ratePerSecond`, holding at most `burst`). */
  take(
    bucket: string,
    ratePerSecond: number,
    burst: number,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

/**
 * Attempts at something guessable (a password for one email from one address), each allowed only once
 * the delay that the attempts before it earned has passed: a delay that grows with every attempt, and
 * never a lock that an attacker could keep closed.
 */
export interface AttemptDelays {
  /**
   * Counts an attempt at `key` when the delay after the last one has passed; `delayAfter(n)` is that
   * delay, in µs, after `n` counted attempts. Otherwise counts nothing and says when to try again.
   * Concurrent attempts at one key are counted one by one, each against the delay of the one before.
   */
  attempt(
    key: string,
    delayAfter: (counted: number) => Micros,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /** Forgets the attempts at `key` (the last one succeeded). */
  forget(key: string): Promise<void>;
}

/** An environment's API keys: each under its id, and a copy under its hash that token exchange reads. */
export interface ApiKeyStore {
  putApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** An integration's keys in this environment, newest first, revoked ones too. */
  listApiKeys(integrationId: string): Promise<ApiKeyRecord[]>;
  /**
   * Marks the key revoked at `at`, in both of its records at once, and answers it; a key already
   * revoked keeps its first time. Throws `not_found` for an unknown key.
   */
  revokeApiKey(id: string, at: Micros): Promise<ApiKeyRecord>;
  /** Records an accepted exchange (the listing's `last_used_at`). */
  markApiKeyUsed(id: string, at: Micros): Promise<void>;
}

/**
 * Each organisation's name as this environment's hosted pages name the sender: a copy of the identity
 * table's name (which an environment's pipeline cannot read), written whenever a key is made for one of
 * its integrations here, so every organisation that can send a contract has one.
 */
export interface OrganisationNameStore {
  put(organisationId: string, name: string): Promise<void>;
  /** Null for an organisation that has made no key here since names were kept. */
  get(organisationId: string): Promise<string | null>;
}

/**
 * Organisations' sandbox budgets, in the sandbox's table: the contract review store counts a use in the
 * transaction that accepts a PDF. An organisation without a record has the default budget, none used.
 */
export interface SandboxBudgetStore {
  get(organisationId: string): Promise<SandboxBudget>;
  /** Sets the total; what was used stays. The `audit` entries are written in the same transaction. */
  set(organisationId: string, total: number, audit?: AuditEntry[]): Promise<SandboxBudget>;
}

/**
 * Organisations and their integrations, in the identity table (shared by both environments): the one
 * source of truth for who owns what; an environment's records carry the ids.
 */
export interface OrganisationStore {
  /**
   * Records the organisation and makes its owner's person record point at it, together; throws
   * `OrganisationExists` when the person owns another one.
   */
  create(organisation: Organisation): Promise<void>;
  get(id: string): Promise<Organisation | null>;
  /** Every organisation by name (case folded, ties by id), a page at a time, from an index. */
  list(options: { limit: number; after?: Organisation }): Promise<Page<Organisation>>;
  createIntegration(integration: Integration): Promise<void>;
  getIntegration(id: string): Promise<Integration | null>;
  /** The organisation's integrations, newest first. */
  listIntegrations(organisationId: string): Promise<Integration[]>;
}

/**
 * People, in the identity table (shared by both environments). Each email belongs to one person: the
 * store keeps a second item under the email, written in the same transaction as the person.
 */
export interface PeopleStore {
  /** Records a new person and claims their email, together; throws `EmailTaken` when another has it. */
  create(person: Person): Promise<void>;
  get(id: string): Promise<Person | null>;
  /** The person with this (normalised) email. */
  findByEmail(email: string): Promise<Person | null>;
}

/** What a person let one client do (an OAuth grant of the identity provider), as the portal will list it. */
export interface ClientGrant {
  grantId: string;
  clientId: string;
  /** The name the client registered with, null when it gave none (or is no longer registered). */
  clientName: string | null;
  grantedAt: Micros;
}

/** The grants the identity provider keeps in the identity table, found by person. */
export interface ClientGrants {
  /** The person's grants that have not expired, newest first. */
  listByPerson(personId: string): Promise<ClientGrant[]>;
  /**
   * Withdraws one of the person's grants: the grant and every code and token issued under it, so the
   * client can neither use nor refresh what it holds. False when the person has no such grant.
   */
  revoke(personId: string, grantId: string): Promise<boolean>;
}

/** The identity area of one environment: its access tokens, rate limits, API keys and sandbox budgets. */
export interface IdentityPorts {
  tokenIssuer: TokenIssuer;
  tokenVerifier: TokenVerifier;
  rateLimiter: RateLimiter;
  apiKeys: ApiKeyStore;
  sandboxBudgets: SandboxBudgetStore;
  organisationNames: OrganisationNameStore;
}
