// api -> the OpenAPI 3.1 document of the /v1 interface, generated: the paths from the route table
// (routes.ts), every schema from the zod schemas the endpoints validate and answer with
// (core/interface-schemas.ts), the error codes from core/errors.ts. Only the words are written here.
import * as z from 'zod/mini';
import { API_ERROR_STATUS, type ApiErrorCode } from '../core/errors';
import {
  CLIENT_LIST_FILTERS,
  ClientId,
  ClientList,
  Client as ClientSchema,
  CONTRACT_REVIEW_LIST_FILTERS,
  ContractRequest,
  ContractReview,
  ContractReviewId,
  ContractReviewList,
  errorBody,
  INTERFACE_SCHEMAS,
  Limit,
  Onboarding,
  OnboardingId,
  OnboardingSession,
  SessionRequest,
  Token,
  VersionRequest,
} from '../core/interface-schemas';
import type { Environment } from '../core/model';
import { ROUTES, type Route } from './routes';
import { MAX_PDF_BYTES } from './upload/read-upload';

type Json = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';

/** A `$ref` to a named schema of interface-schemas.ts. */
const ref = (schema: z.ZodMiniType): Json => {
  const named = INTERFACE_SCHEMAS.get(schema);
  if (!named) throw new Error('the schema has no name in INTERFACE_SCHEMAS');
  return { $ref: `${SCHEMAS}${named.id}` };
};

// JSON Schema 2020-12 (OpenAPI 3.1's own dialect), each named schema referred to where the document keeps it.
const TO_JSON_SCHEMA = {
  target: 'draft-2020-12',
  io: 'input',
  uri: (id: string) => `${SCHEMAS}${id}`,
} as const;

/** A schema not named in the document (an error body), inline and without `$schema`. */
const jsonSchema = (schema: z.ZodMiniType): Json => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, TO_JSON_SCHEMA) as Json;
  return rest;
};

const componentSchemas = (): Json => {
  const { schemas } = z.toJSONSchema(INTERFACE_SCHEMAS, TO_JSON_SCHEMA) as { schemas: Record<string, Json> };
  // Each comes with the `$id` of its place in the document, which a reader resolves as a base URI.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $id: _, $schema: __, ...schema }]) => [id, schema]),
  );
};

// Error codes by the operations that answer them (decisions.md §1; the order of checks is theirs).
const ANY_CALL: readonly ApiErrorCode[] = ['internal_error', 'service_unavailable'];
const AUTHENTICATED: readonly ApiErrorCode[] = [
  'authentication_required',
  'wrong_environment',
  'token_invalid',
  'token_expired',
  'rate_limited',
  ...ANY_CALL,
];
const LIST: readonly ApiErrorCode[] = [
  ...AUTHENTICATED,
  'limit_invalid',
  'starting_after_invalid',
  'filter_invalid',
  'parameter_unknown',
];
const UPLOAD: readonly ApiErrorCode[] = [
  ...AUTHENTICATED,
  'idempotency_key_required',
  'idempotency_key_invalid',
  'content_digest_required',
  'content_digest_invalid',
  'payload_too_large',
  'content_digest_mismatch',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'multipart_invalid',
  'request_invalid',
  'clients_invalid',
  'client_unknown',
  'file_rejected',
  'budget_used',
];

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers an error of `status` carries. */
const errorHeaders = (status: number): Json => ({
  'Service-Request-Id': headerRef('Service-Request-Id'),
  ...(status === 401 && { 'WWW-Authenticate': headerRef('WWW-Authenticate') }),
  ...((status === 429 || status === 503) && { 'Retry-After': headerRef('Retry-After') }),
});

/** One response per status, each naming exactly the codes an operation answers with it. */
const errorResponses = (codes: readonly ApiErrorCode[]): Json => {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of codes) {
    const status = API_ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((code) => `\`${code}\``).join(', '),
          headers: errorHeaders(status),
          content: jsonContent(jsonSchema(errorBody(list))),
        },
      ]),
  );
};

const answer = (description: string, schema: Json, headers: Json = {}): Json => ({
  description,
  headers: { 'Service-Request-Id': headerRef('Service-Request-Id'), ...headers },
  content: jsonContent(schema),
});

const pathId = (schema: z.ZodMiniType, what: string): Json => ({
  name: 'id',
  in: 'path',
  required: true,
  description: `The ${what}'s id. A malformed or unknown id, or one of another integration or environment, is 404 \`not_found\`.`,
  schema: ref(schema),
});

const listParameters = (filters: Readonly<Record<string, z.ZodMiniType>>, itemId: z.ZodMiniType): Json[] => [
  { name: 'limit', in: 'query', required: false, schema: ref(Limit) },
  {
    name: 'starting_after',
    in: 'query',
    required: false,
    description: 'The last id of the previous page, for the next page.',
    schema: ref(itemId),
  },
  ...Object.entries(filters).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema: ref(schema),
  })),
];

const multipart = (request: z.ZodMiniType): Json => ({
  required: true,
  description:
    'Exactly two parts, in either order. `Content-Digest` is the SHA-256 of this whole body as sent: build the body (or hash the file) first, then send it.',
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['request', 'file'],
        properties: {
          request: ref(request),
          file: {
            type: 'string',
            contentMediaType: 'application/pdf',
            description: `The contract PDF, up to ${MAX_PDF_BYTES} bytes.`,
          },
        },
      },
      encoding: { request: { contentType: 'application/json' }, file: { contentType: 'application/pdf' } },
    },
  },
});

const UPLOAD_HEADERS = [
  { $ref: '#/components/parameters/Idempotency-Key' },
  { $ref: '#/components/parameters/Content-Digest' },
];
const REPLAYED = { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  /** Who may call: an access token (the default) or an API key (`POST /v1/token`); a public route, anyone. */
  security?: 'apiKey';
  parameters?: Json[];
  requestBody?: Json;
  responses: Json;
  errors: readonly ApiErrorCode[];
}

/** Each route's operation, by the route's name. */
const OPERATIONS: Readonly<Record<string, Operation>> = {
  token: {
    operationId: 'createToken',
    summary: 'Exchange an API key for a 15-minute access token',
    tags: ['Authentication'],
    security: 'apiKey',
    responses: { '200': answer('The access token.', ref(Token)) },
    errors: ['authentication_required', 'wrong_environment', 'api_key_invalid', 'rate_limited', ...ANY_CALL],
  },
  'create-onboarding-session': {
    operationId: 'createOnboardingSession',
    summary: 'Open a sign-up session (a reference used before reopens its onboarding)',
    tags: ['Clients'],
    requestBody: { required: true, content: jsonContent(ref(SessionRequest)) },
    responses: { '200': answer('The onboarding, with a new session token.', ref(OnboardingSession)) },
    errors: [...AUTHENTICATED, 'request_invalid', 'reference_required', 'reference_invalid'],
  },
  'get-onboarding': {
    operationId: 'getOnboarding',
    summary: 'Read an onboarding',
    tags: ['Clients'],
    parameters: [pathId(OnboardingId, 'onboarding')],
    responses: { '200': answer('The onboarding.', ref(Onboarding)) },
    errors: [...AUTHENTICATED, 'not_found'],
  },
  'get-client': {
    operationId: 'getClient',
    summary: 'Read a client',
    tags: ['Clients'],
    parameters: [pathId(ClientId, 'client')],
    responses: { '200': answer('The client.', ref(ClientSchema)) },
    errors: [...AUTHENTICATED, 'not_found'],
  },
  'list-clients': {
    operationId: 'listClients',
    summary: 'List clients, newest first',
    tags: ['Clients'],
    parameters: listParameters(CLIENT_LIST_FILTERS, ClientId),
    responses: { '200': answer('A page of clients.', ref(ClientList)) },
    errors: LIST,
  },
  'create-contract-review': {
    operationId: 'createContractReview',
    summary: 'Send a contract',
    tags: ['Contract reviews'],
    parameters: UPLOAD_HEADERS,
    requestBody: multipart(ContractRequest),
    responses: {
      '202': answer('Accepted: the contract is being read.', ref(ContractReview), REPLAYED),
    },
    errors: [
      ...UPLOAD,
      'external_reference_required',
      'external_reference_invalid',
      'product_required',
      'product_invalid',
      'review_required',
      'review_invalid',
      'review_not_applicable',
      'review_not_available',
      'recipient_required',
      'recipient_invalid',
      'recipient_not_applicable',
      'recipient_client_unusable',
      'external_reference_exists',
    ],
  },
  'list-contract-reviews': {
    operationId: 'listContractReviews',
    summary: 'List contract reviews, newest first',
    tags: ['Contract reviews'],
    parameters: listParameters(CONTRACT_REVIEW_LIST_FILTERS, ContractReviewId),
    responses: { '200': answer('A page of contract reviews.', ref(ContractReviewList)) },
    errors: LIST,
  },
  'get-contract-review': {
    operationId: 'getContractReview',
    summary: 'Read a contract review (its latest version); poll it every 30 seconds',
    tags: ['Contract reviews'],
    parameters: [pathId(ContractReviewId, 'contract review')],
    responses: { '200': answer('The contract review.', ref(ContractReview)) },
    errors: [...AUTHENTICATED, 'not_found'],
  },
  'create-contract-review-version': {
    operationId: 'createContractReviewVersion',
    summary: 'Send a new version of a contract, at the same link',
    tags: ['Contract reviews'],
    parameters: [pathId(ContractReviewId, 'contract review'), ...UPLOAD_HEADERS],
    requestBody: multipart(VersionRequest),
    responses: {
      '200': answer(
        'The file is byte-identical to the latest version: nothing made.',
        ref(ContractReview),
        REPLAYED,
      ),
      '202': answer('Accepted: the new version is being read.', ref(ContractReview), REPLAYED),
    },
    errors: [
      ...UPLOAD,
      'not_found',
      'based_on_version_required',
      'based_on_version_invalid',
      'stale_version',
    ],
  },
  openapi: {
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    tags: ['Interface'],
    responses: { '200': answer('The OpenAPI 3.1 document of the /v1 interface.', { type: 'object' }) },
    errors: ['internal_error'],
  },
};

/** The codes each route's operation answers, by route name: for the tests. */
export const operationErrors = (name: string): readonly ApiErrorCode[] => OPERATIONS[name]?.errors ?? [];

const operation = ({ name, public: open }: Route): Json => {
  const op = OPERATIONS[name];
  if (!op) throw new Error(`the route ${name} has no operation in the OpenAPI document`);
  const { errors, security, ...rest } = op;
  return {
    ...rest,
    ...(security === 'apiKey' && { security: [{ apiKey: [] }] }),
    ...(open && { security: [] }),
    responses: { ...op.responses, ...errorResponses(errors) },
  };
};

const paths = (): Json => {
  const byPath: Record<string, Json> = {};
  for (const route of ROUTES) {
    byPath[route.path] = { ...byPath[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return byPath;
};

const DESCRIPTION = `Contract publishing and client onboarding for property sales.

Every call but \`POST /v1/token\` and this document sends \`Authorization: Bearer <access token>\`; exchange an API key (\`svc_test_…\` sandbox, \`svc_live_…\` production) at \`POST /v1/token\` for a 15-minute token, and exchange it again when a call answers 401. Every answer carries \`Service-Request-Id\`; every error is \`{ "error": { "code", "message" } }\`, and clients branch on \`code\`. A path that does not exist answers 404 \`not_found\`; a known path with another method answers 405 \`method_not_allowed\` with \`Allow\`.`;

/** The document, its first server the address it is served from. */
export const openApiDocument = (
  environment: Environment,
  baseUrls: Readonly<Record<Environment, string>>,
) => {
  const other = environment === 'sandbox' ? 'production' : 'sandbox';
  return {
    openapi: '3.1.1',
    info: { title: 'Contract publishing and client onboarding API', version: 'v1', description: DESCRIPTION },
    servers: [
      { url: baseUrls[environment], description: environment },
      { url: baseUrls[other], description: other },
    ],
    security: [{ accessToken: [] }],
    tags: [
      { name: 'Authentication' },
      { name: 'Clients', description: 'Sign-up sessions, onboardings and the clients they make.' },
      { name: 'Contract reviews', description: 'Contracts sent, their versions and publications.' },
      { name: 'Interface' },
    ],
    paths: paths(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token of `POST /v1/token`.',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, accepted by `POST /v1/token` only.',
        },
      },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'Chosen per request, such as a UUID; the same key with the same body answers the first response (`Idempotent-Replayed: true`), kept 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        'Content-Digest': {
          name: 'Content-Digest',
          in: 'header',
          required: true,
          description: 'RFC 9530: `sha-256=:<base64>:`, the SHA-256 of the whole body exactly as sent.',
          schema: { type: 'string' },
          example: 'sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:',
        },
      },
      headers: {
        'Service-Request-Id': { description: 'This request, `rqs_…`.', schema: { type: 'string' } },
        'WWW-Authenticate': { description: 'RFC 6750 `Bearer`.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        'Idempotent-Replayed': {
          description: '`true` on a replay of an earlier request with the same `Idempotency-Key`.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
  };
};
