// local -> the MCP server on the local stack: at `/mcp` on each API address (offsets 0 and 1), its tokens
// checked against the local identity provider (offset 7: its JWKS, and its grants in the
// identity table), its tools acting on both environments' services and the identity table's directory.
import type { RequestListener } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { oidcLiveGrants } from '../lambdas/adapters/dynamodb/oidc-live-grants';
import { LOCAL_IDENTITY_TABLE } from '../lambdas/adapters/dynamodb/table-schema';
import { systemClock } from '../lambdas/adapters/system-clock';
import { translatingFaults } from '../lambdas/adapters/unavailable';
import type { Environment } from '../lambdas/core/model';
import type { Services } from '../lambdas/core/services';
import { mcpServerUrl } from '../lambdas/core/settings';
import { checkAccessToken, remoteKeys } from '../lambdas/mcp/access-tokens';
import { mcpHttpHandler } from '../lambdas/mcp/http';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import { fetchListener } from './mcp-host';
import { localBaseUrls, localDirectory } from './wiring';

export const localMcpListener = (
  config: LocalConfig,
  dynamo: DynamoDBDocumentClient,
  services: Readonly<Record<Environment, Services>>,
  environment: Environment,
): RequestListener => {
  const baseUrl = localBaseUrls(config)[environment];
  const issuer = localUrl(config, PORT_OFFSETS.identityProvider);
  const resource = mcpServerUrl(baseUrl);
  const grants = translatingFaults(oidcLiveGrants(dynamo, LOCAL_IDENTITY_TABLE, systemClock()));
  const tokens = { issuer, resource, keys: remoteKeys(`${issuer}/jwks`) };
  const handler = mcpHttpHandler(
    { resource, issuer, resourceName: `Contract service MCP server (${environment})` },
    (token) => checkAccessToken(tokens, grants, token),
    { directory: localDirectory(dynamo), environments: services },
  );
  return fetchListener(handler, baseUrl);
};
