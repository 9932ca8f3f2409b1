// The OpenAPI document: valid OpenAPI 3.1 by a validator from the registry, every route of the router
// and every error code of the /v1 API in it, each code under its own status.
import { validate } from '@readme/openapi-parser';
import { openApiDocument } from '../../lambdas/api/openapi-document';
import { ROUTES } from '../../lambdas/api/routes';
import { API_ERROR_STATUS, type ApiErrorCode } from '../../lambdas/core/errors';

const BASE_URLS = { sandbox: 'http://127.0.0.1:3001', production: 'http://127.0.0.1:3000' };
const document = openApiDocument('sandbox', BASE_URLS);

interface ErrorResponse {
  content: {
    'application/json': { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } };
  };
}

/** Each operation's error codes by status, as the document lists them. */
const documentedErrors = (): Array<{ operation: string; status: number; code: string }> => {
  const found: Array<{ operation: string; status: number; code: string }> = [];
  for (const methods of Object.values(document.paths)) {
    for (const op of Object.values(methods as Record<string, { operationId: string; responses: object }>)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const codes = (response as ErrorResponse).content['application/json'].schema.properties.error
          .properties.code.enum;
        for (const code of codes) found.push({ operation: op.operationId, status: Number(status), code });
      }
    }
  }
  return found;
};

type Api = Parameters<typeof validate>[0];

test('a validator of OpenAPI 3.1 finds no error in it, and does find one in a broken copy', async () => {
  // The validator dereferences the document in place: it is given copies.
  const result = await validate(structuredClone(document) as Api);
  expect(result.valid ? { warnings: result.warnings } : result.errors).toEqual({ warnings: [] });
  const broken = structuredClone(document) as unknown as { paths: Record<string, { get?: unknown }> };
  broken.paths['/v1/clients/{id}'] = { get: { responses: {}, parameters: [{ name: 'id', in: 'path' }] } };
  expect((await validate(broken as unknown as Api)).valid).toBe(false);
});

test('it is OpenAPI 3.1, served first from the address it is read at', () => {
  expect(document.openapi).toMatch(/^3\.1\./);
  expect(document.servers.map((server) => server.url)).toEqual([BASE_URLS.sandbox, BASE_URLS.production]);
  expect(openApiDocument('production', BASE_URLS).servers[0]?.url).toBe(BASE_URLS.production);
});

test('every route of the router is an operation, and nothing else is', () => {
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(documented.sort()).toEqual(ROUTES.map((route) => `${route.method} ${route.path}`).sort());
  const ids = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods as Record<string, { operationId: string }>).map((op) => op.operationId),
  );
  expect(new Set(ids).size).toBe(ROUTES.length);
});

test('every error code of the /v1 API is in it, each under its status', () => {
  const codes = Object.keys(API_ERROR_STATUS) as ApiErrorCode[];
  expect((document.components.schemas.ErrorCode as { enum: string[] }).enum.sort()).toEqual(
    [...codes].sort(),
  );
  const errors = documentedErrors();
  for (const { code, status } of errors)
    expect([code, status]).toEqual([code, API_ERROR_STATUS[code as ApiErrorCode]]);
  // 405 belongs to no operation (it is the answer to a method no operation has): ErrorCode names it.
  const answered = new Set(errors.map((error) => error.code));
  expect(codes.filter((code) => !answered.has(code))).toEqual(['method_not_allowed']);
});

test('the token takes an API key, the document no credential, every other operation an access token', () => {
  const security = Object.fromEntries(
    Object.values(document.paths).flatMap((methods) =>
      Object.values(methods as Record<string, { operationId: string; security?: unknown }>).map((op) => [
        op.operationId,
        op.security,
      ]),
    ),
  );
  expect(document.security).toEqual([{ accessToken: [] }]);
  expect(security).toMatchObject({
    createToken: [{ apiKey: [] }],
    getOpenApiDocument: [],
    getClient: undefined,
  });
  expect(Object.values(security).filter((s) => s !== undefined)).toHaveLength(2);
});

test('an upload documents its two headers, its multipart body and its 413', () => {
  const upload = (document.paths['/v1/contract-reviews'] as { post: unknown }).post as {
    parameters: Array<{ $ref: string }>;
    requestBody: { content: Record<string, { schema: { required: string[] } }> };
    responses: Record<string, unknown>;
  };
  expect(upload.parameters.map((p) => p.$ref)).toEqual([
    '#/components/parameters/Idempotency-Key',
    '#/components/parameters/Content-Digest',
  ]);
  expect(upload.requestBody.content['multipart/form-data']?.schema.required).toEqual(['request', 'file']);
  expect(Object.keys(upload.responses)).toEqual(
    expect.arrayContaining(['202', '400', '401', '403', '409', '413', '422']),
  );
});

test('the request schemas are the ones the readers check: strict, with the limits of the interface', () => {
  const schemas = document.components.schemas as Record<string, Record<string, unknown>>;
  expect(schemas.ContractRequest).toMatchObject({
    additionalProperties: false,
    required: ['external_reference', 'product'],
  });
  expect(schemas.ExternalReference).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
  expect(schemas.ClientIds).toMatchObject({ type: 'array', maxItems: 10, uniqueItems: true });
  expect(schemas.Limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
});
