// infra -> the HTTP API of one environment: one route and one ServiceFunction per endpoint of
// `ROUTES`, and the fallback handler on `$default` for every other path and method. The upload
// endpoints, which accept versions, start their contract runs.
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { FALLBACK_HANDLER, ROUTES, type Route } from '../lambdas/api/routes';
import { ServiceFunction } from './service-function';
import {
  type BlobAccess,
  connectService,
  endsReviewWaits,
  type HostResources,
  type StateMachines,
  useStateMachines,
} from './wiring';

/** Handler module of an endpoint, relative to the repository root. */
export const handlerEntry = (name: string): string => `lambdas/hosts/aws/functions/${name}.ts`;

/** Uploads put PDFs; no other endpoint reads or writes blobs (they answer from the table). */
const blobAccessOf = (route: Route): BlobAccess => (route.upload ? 'read-put' : 'none');

export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  /** Endpoint functions by handler name, the fallback included. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, resources: HostResources, stateMachines: StateMachines) {
    super(scope, id);
    const functions = new Map<string, ServiceFunction>();
    const endpointFunction = (
      name: string,
      description: string,
      blobAccess: BlobAccess,
      readsPdfs = false,
    ): ServiceFunction => {
      const fn = new ServiceFunction(this, name, { entry: handlerEntry(name), description, readsPdfs });
      connectService(fn, resources, blobAccess);
      functions.set(name, fn);
      return fn;
    };

    const fallback = endpointFunction(FALLBACK_HANDLER, 'every other path and method', 'none');
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: `contract-service ${resources.environment}`,
      defaultIntegration: new HttpLambdaIntegration('Fallback', fallback),
    });
    for (const route of ROUTES) {
      // The uploads inspect the PDFs they receive: only they carry pdf.js.
      const fn = endpointFunction(
        route.name,
        `${route.method} ${route.path}`,
        blobAccessOf(route),
        route.upload,
      );
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
  }
}
