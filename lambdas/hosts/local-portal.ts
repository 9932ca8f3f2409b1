// host -> the developer portal on the local stack (offset 6): its built pages and its backend over Node
// HTTP, signing people in at the local identity provider as the client `portal` (its secret under
// DATA_DIR/keys), with sessions in the identity table of DynamoDB Local, and each environment's services.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildPortalAssets } from '../../frontend/portal/build';
import { portalFiles } from '../../frontend/portal/served-files';
import { DynamoDbClientGrants } from '../adapters/dynamodb/oidc-provider-storage';
import { DynamoDbPortalSessionStore } from '../adapters/dynamodb/portal-session-store';
import { LOCAL_IDENTITY_TABLE } from '../adapters/dynamodb/table-schema';
import { systemClock } from '../adapters/system-clock';
import { translatingFaults } from '../adapters/unavailable';
import type { Environment } from '../core/model';
import type { Services } from '../core/services';
import { portalApp } from '../portal/app';
import { MAX_BODY_BYTES, type PortalAnswer, type PortalRequest } from '../portal/http';
import { PortalSignIn } from '../portal/sign-in';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './local-config';
import { localPortalClientSecret, localPortalRedirectUri, PORTAL_CLIENT_ID } from './local-identity-provider';
import { localDirectory, localFrameUrls } from './local-wiring';
import { requestTarget } from './request-target';

/** The body as text, or null when it is larger than the portal reads (the rest is left to drain). */
const readBody = async (request: IncomingMessage): Promise<string | null> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      request.resume();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

const headersOf = (request: IncomingMessage): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );

const send = (response: ServerResponse, answer: PortalAnswer): void => {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  response.writeHead(answer.status, {
    ...answer.headers,
    ...(answer.cookies.length > 0 && { 'Set-Cookie': answer.cookies }),
    'Content-Length': String(body.length),
  });
  response.end(body);
};

const TOO_LARGE: PortalAnswer = {
  status: 413,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  cookies: [],
  body: JSON.stringify({
    error: {
      code: 'payload_too_large',
      message: `The portal reads bodies of up to ${MAX_BODY_BYTES} bytes.`,
    },
  }),
};

/** The portal's listener, over the identity table (which must exist) and each environment's services. */
export const localPortal = async (
  config: LocalConfig,
  dynamo: DynamoDBDocumentClient,
  environments: Readonly<Record<Environment, Services>>,
): Promise<RequestListener> => {
  const clock = systemClock();
  const origin = localUrl(config, PORT_OFFSETS.portal);
  const app = portalApp({
    origin,
    cookies: { secure: false },
    core: {
      directory: localDirectory(dynamo),
      environments,
      grants: translatingFaults(new DynamoDbClientGrants(dynamo, LOCAL_IDENTITY_TABLE, clock)),
      portalClientId: PORTAL_CLIENT_ID,
      frameUrls: localFrameUrls(config),
    },
    sessions: translatingFaults(new DynamoDbPortalSessionStore(dynamo, LOCAL_IDENTITY_TABLE, clock)),
    signIn: new PortalSignIn({
      issuer: localUrl(config, PORT_OFFSETS.identityProvider),
      clientId: PORTAL_CLIENT_ID,
      clientSecret: await localPortalClientSecret(config.dataDir),
      redirectUri: localPortalRedirectUri(config),
      postLogoutRedirectUri: `${origin}/`,
    }),
    clock,
    files: portalFiles(await buildPortalAssets()),
  });
  return (request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (body === null) return send(response, TOO_LARGE);
      const target = requestTarget(request.url);
      const portalRequest: PortalRequest = {
        method: request.method ?? 'GET',
        path: target.pathname,
        query: target.searchParams,
        headers: headersOf(request),
        body,
      };
      send(response, await app(portalRequest));
    })().catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  };
};
