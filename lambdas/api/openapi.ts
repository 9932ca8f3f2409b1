// api -> GET /v1/openapi.json: the OpenAPI 3.1 document of the interface, for anyone (no credential),
// its first server the address that serves it.

import type { Environment } from '../core/model';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint } from './http/endpoint';
import { openApiDocument } from './openapi-document';

/** Made once per environment a process serves: the document never changes while it runs. */
const documents = new Map<Environment, string>();

export const openapi = endpoint(async (_request, { settings }: Services<Pick<Ports, never>>) => {
  let document = documents.get(settings.environment);
  if (document === undefined) {
    document = JSON.stringify(openApiDocument(settings.environment, settings.baseUrls));
    documents.set(settings.environment, document);
  }
  return { status: 200, body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
