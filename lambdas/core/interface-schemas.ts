// core -> the /v1 interface's bodies, fields and query parameters as zod schemas: the readers of
// requests check each field with these, the presenters' answers are typed by them, and the OpenAPI
// document (lambdas/api/openapi.ts) is generated from them, so the document cannot drift from the code.
import * as z from 'zod/mini';
import { API_ERROR_STATUS, type ApiErrorCode } from './errors';
import { ID_PATTERNS } from './ids';
import { CHANNELS, ENVIRONMENTS, PRODUCTS, REVIEW_KINDS } from './model';
import { isPrintableText } from './text';

// zod/mini, not zod: its schemas are plain functions that a bundle keeps only as used (about 25 KB in
// every endpoint's function, where zod's classic API is 450 KB and took several past their 1 MB).

/** The named schemas: each is one `#/components/schemas/{id}` of the OpenAPI document. */
export const INTERFACE_SCHEMAS = z.registry<{ id: string }>();

const named = <T extends z.ZodMiniType>(id: string, schema: T): T => {
  INTERFACE_SCHEMAS.add(schema, { id });
  return schema;
};

/** What the OpenAPI document says of a schema beyond what its checks say (a description, a limit). */
const described = <T extends z.ZodMiniType>(schema: T, meta: Record<string, unknown>): T => {
  z.globalRegistry.add(schema, meta);
  return schema;
};

/**
 * "Printable characters" (lambdas/core/text.ts), counted as JSON Schema counts them: code points, which
 * is why the limit is a refinement and the document's `maxLength` is metadata.
 */
export const printableText = (maxCharacters: number, description: string) =>
  described(z.string().check(z.refine((value) => isPrintableText(value, maxCharacters))), {
    minLength: 1,
    maxLength: maxCharacters,
    description,
  });

const idOf = (prefix: keyof typeof ID_PATTERNS, description: string) =>
  described(z.string().check(z.regex(ID_PATTERNS[prefix])), { description });

export const ClientId = named('ClientId', idOf('cli', 'A client id, `cli_…`.'));
export const OnboardingId = named('OnboardingId', idOf('onb', 'An onboarding id, `onb_…`.'));
export const ContractReviewId = named('ContractReviewId', idOf('crv', 'A contract review id, `crv_…`.'));

const dateTime = (description: string) =>
  described(z.string(), { format: 'date-time', description, examples: ['2026-11-21T09:30:00.123456Z'] });
const dateTimeOrNull = (description: string) => z.nullable(dateTime(description));

// Requests

export const ExternalReference = named(
  'ExternalReference',
  printableText(200, "The caller's own id for a contract: 1 to 200 printable characters, unique."),
);
export const Reference = named(
  'Reference',
  printableText(200, "The caller's own id for a sign-up: 1 to 200 printable characters."),
);
export const Product = named('Product', z.enum(PRODUCTS));
export const ReviewKind = named(
  'ReviewKind',
  described(z.enum(REVIEW_KINDS), {
    description: 'Only `lawyer` is available (others: 422 `review_not_available`).',
  }),
);

export const MAX_CLIENTS = 10;
export const ClientIds = named(
  'ClientIds',
  described(
    z.array(ClientId).check(
      z.maxLength(MAX_CLIENTS),
      z.refine((ids) => new Set(ids).size === ids.length),
    ),
    { uniqueItems: true, description: `Up to ${MAX_CLIENTS} client ids of this environment, each once.` },
  ),
);

// Deliberately loose: one @, something either side, a dot in the domain, no spaces.
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const personName = (description: string) =>
  described(
    z.string().check(
      z.trim(),
      z.refine((value) => isPrintableText(value, 200)),
    ),
    {
      minLength: 1,
      maxLength: 200,
      description,
    },
  );

export const Recipient = named(
  'Recipient',
  described(
    z.strictObject({
      first_name: personName('Given name.'),
      last_name: personName('Family name.'),
      email: described(
        z.string().check(
          z.trim(),
          z.refine((value) => isPrintableText(value, 200)),
          z.regex(EMAIL),
        ),
        { maxLength: 200, description: 'Email address.' },
      ),
    }),
    { description: 'The one person a `legal_advice` review is written for.' },
  ),
);

export const ContractRequest = named(
  'ContractRequest',
  z.strictObject({
    external_reference: ExternalReference,
    product: Product,
    review: described(z.optional(z.nullable(ReviewKind)), {
      description: '`legal_information` only, and required there.',
    }),
    clients: z.optional(z.nullable(ClientIds)),
    recipient: described(z.optional(z.nullable(Recipient)), {
      description: '`legal_advice` only; required there unless `clients` names a client.',
    }),
  }),
);

export const VersionRequest = named(
  'VersionRequest',
  z.strictObject({
    based_on_version: described(z.int().check(z.minimum(1), z.maximum(2_147_483_647)), {
      description: 'The latest version the caller knows; a newer one exists: 409 `stale_version`.',
    }),
    clients: described(z.optional(z.nullable(ClientIds)), {
      description: "Replaces the contract's clients; omitted or null keeps them; `[]` clears them.",
    }),
  }),
);

export const SessionRequest = named('SessionRequest', z.strictObject({ reference: Reference }));

// List queries

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const Limit = named(
  'Limit',
  described(z.int().check(z.minimum(1), z.maximum(MAX_LIMIT)), {
    default: DEFAULT_LIMIT,
    description: 'Page size, never clamped.',
  }),
);

/** The filters of `GET /v1/clients`, by query parameter. */
export const CLIENT_LIST_FILTERS = { onboarding_id: OnboardingId, reference: Reference } as const;
/** The filters of `GET /v1/contract-reviews`, by query parameter. */
export const CONTRACT_REVIEW_LIST_FILTERS = { external_reference: ExternalReference } as const;

// Answers

const partState = z.enum(['pending', 'running', 'completed', 'failed']);
export const Part = named(
  'Part',
  z.object({
    state: partState,
    completed_at: dateTimeOrNull('Set once completed.'),
    failure_reason: z.nullable(z.enum(['timed_out', 'processing_error'])),
    failed_at: dateTimeOrNull('Set while failed.'),
  }),
);

export const LawyerReview = named(
  'LawyerReview',
  z.object({
    state: z.enum(['not_requested', 'requested', 'completed']),
    requested_at: dateTimeOrNull('When the review became due.'),
    completed_at: dateTimeOrNull('When the lawyer published.'),
  }),
);

export const Publication = named(
  'Publication',
  z.object({
    channel: z.enum(CHANNELS),
    state: z.enum(['not_requested', 'pending', 'published', 'withdrawn', 'failed']),
    url: described(z.nullable(z.string()), { description: 'Where it lives once published.' }),
    published_at: dateTimeOrNull('The latest publish.'),
  }),
);

const RecipientAnswer = z.object({ first_name: z.string(), last_name: z.string(), email: z.string() });

export const ContractReview = named(
  'ContractReview',
  z.object({
    id: ContractReviewId,
    external_reference: z.string(),
    product: Product,
    version: z.int().check(z.minimum(1), z.maximum(2_147_483_647)),
    review: z.nullable(ReviewKind),
    processing: Part,
    analysis: z.nullable(Part),
    lawyer_review: z.nullable(LawyerReview),
    publications: z.array(Publication),
    clients: z.array(ClientId),
    recipient: z.nullable(RecipientAnswer),
    created_at: dateTime('When the contract was first sent.'),
  }),
);

export const Client = named(
  'Client',
  z.object({
    id: ClientId,
    onboarding_id: OnboardingId,
    reference: z.string(),
    primary: z.boolean(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    mobile: z.nullable(z.string()),
    created_at: dateTime('When first submitted.'),
  }),
);

const onboardingState = z.enum(['open', 'submitted', 'accepted']);
export const Onboarding = named(
  'Onboarding',
  z.object({
    id: OnboardingId,
    reference: z.string(),
    state: onboardingState,
    clients: z.array(Client),
    created_at: dateTime('When opened.'),
    submitted_at: dateTimeOrNull('The latest submission.'),
    accepted_at: dateTimeOrNull('When a submission was last accepted.'),
  }),
);

export const OnboardingSession = named(
  'OnboardingSession',
  z.object({
    id: OnboardingId,
    reference: z.string(),
    state: onboardingState,
    session_token: described(z.string(), {
      description: '`onbs_…`: shows and submits this one form; safe in a browser.',
    }),
    created_at: dateTime('When opened.'),
  }),
);

export const Token = named(
  'Token',
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: described(z.int(), { description: 'Seconds until expiry (900).' }),
    environment: z.enum(ENVIRONMENTS),
  }),
);

const listOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: z.array(item), has_more: z.boolean() });
export const ClientList = named('ClientList', listOf(Client));
export const ContractReviewList = named('ContractReviewList', listOf(ContractReview));

const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];
export const ErrorCode = named(
  'ErrorCode',
  described(z.enum(API_ERROR_CODES), {
    description: `Every code the /v1 API answers, with its status: ${API_ERROR_CODES.map((code) => `\`${code}\` ${API_ERROR_STATUS[code]}`).join(', ')}.`,
  }),
);

/** An error body whose `code` is one of `codes` (an operation's answers of one status). */
export const errorBody = (codes: readonly ApiErrorCode[]) =>
  z.object({
    error: z.object({
      code: codes.length > 0 ? z.enum(codes as [ApiErrorCode, ...ApiErrorCode[]]) : ErrorCode,
      message: described(z.string(), { description: 'What to send instead.' }),
    }),
  });
export const ErrorBody = named('Error', errorBody([]));

export type ContractReviewJson = z.output<typeof ContractReview>;
export type ClientJson = z.output<typeof Client>;
export type OnboardingJson = z.output<typeof Onboarding>;
export type OnboardingSessionJson = z.output<typeof OnboardingSession>;
export type TokenJson = z.output<typeof Token>;
