// infra -> the HTTP API of one environment: one route and one ServiceFunction per endpoint of
// `ROUTES`, and the fallback handler on `$default` for every other path and method. The upload
// endpoints, which accept versions, start their contract runs.
import { HttpApi, HttpMethod, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { FrameEndpointName } from '../lambdas/api/frame-routes';
import { type ApiEndpointName, FALLBACK_HANDLER, ROUTES, type Route } from '../lambdas/api/routes';
import { protectHttpApi } from './http-api-protection';
import { ServiceFunction } from './service-function';
import {
  type BlobAccess,
  checksAccessTokens,
  connectService,
  endsReviewWaits,
  type HostResources,
  issuesAccessTokens,
  NO_BLOBS,
  type StateMachines,
  UPLOAD_BLOBS,
  useStateMachines,
} from './wiring';

/** The API's stage throttling: requests a second across all callers, and the burst. */
export const API_THROTTLE = { rate: 500, burst: 1000 } as const;

/** Handler module of an endpoint, relative to the repository root. */
export const handlerEntry = (name: ApiEndpointName | FrameEndpointName): string =>
  `lambdas/hosts/aws/functions/${name}.ts`;

/** Uploads keep PDFs; no other endpoint reads or writes blobs (they answer from the table). */
const blobAccessOf = (route: Route): BlobAccess => (route.upload ? UPLOAD_BLOBS : NO_BLOBS);

export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  /** Endpoint functions by handler name, the fallback included. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** A line per request (lib/http-api-protection.ts). */
  readonly accessLogs: LogGroup;

  /**
   * `authorizer`: every route's, where the API's `execute-api` address stays on (no hosted zone): CloudFront's
   * origin secret (lib/origin-protection.ts).
   */
  constructor(
    scope: Construct,
    id: string,
    resources: HostResources,
    stateMachines: StateMachines,
    authorizer?: IHttpRouteAuthorizer,
  ) {
    super(scope, id);
    const functions = new Map<string, ServiceFunction>();
    const endpointFunction = (
      name: ApiEndpointName,
      description: string,
      blobAccess: BlobAccess,
      readsPdfs = false,
    ): ServiceFunction => {
      const fn = new ServiceFunction(this, name, { entry: handlerEntry(name), description, readsPdfs });
      connectService(fn, resources, { table: 'endpoint', blobs: blobAccess });
      // Every endpoint checks the caller's token (the fallback too, for the request history); one issues them.
      checksAccessTokens(fn, resources);
      functions.set(name, fn);
      return fn;
    };

    const fallback = endpointFunction(FALLBACK_HANDLER, 'every other path and method', NO_BLOBS);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: `contract-service ${resources.environment}`,
      defaultIntegration: new HttpLambdaIntegration('Fallback', fallback),
      ...(authorizer && { defaultAuthorizer: authorizer }),
    });
    for (const route of ROUTES) {
      // The uploads inspect the PDFs they receive: only they carry pdf.js.
      const fn = endpointFunction(
        route.name,
        `${route.method} ${route.path}`,
        blobAccessOf(route),
        route.upload,
      );
      if (route.issuesAccessTokens) issuesAccessTokens(fn, resources);
      if (route.upload) {
        useStateMachines(fn, stateMachines);
        endsReviewWaits(fn, stateMachines);
      }
      this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}-integration`, fn),
      });
    }
    this.functions = functions;
    // Well above the per-key rate limits (decisions.md §4), so only a flood meets it.
    this.accessLogs = protectHttpApi(this, this.httpApi, API_THROTTLE);
  }
}
