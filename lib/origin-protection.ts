// infra -> an HTTP API that answers only CloudFront where it cannot be given a custom domain (and so cannot
// have its `execute-api` address switched off, lib/http-api-origin.ts): CloudFront sends the origin secret
// in a header (as it does to the ingest load balancer, lib/upload-ingest.ts), and every route's Lambda
// authorizer admits only a request carrying one of the secret's accepted values. A request straight to
// `execute-api` has no header and API Gateway answers 401 before any function runs. The authorizer accepts
// the secret's current, pending and previous values, so its rotation (lib/origin-secret-rotation.ts) changes
// only the distributions' header. A stage's APIs share the ingest's secret, rotated with its listener rule.
import { Duration } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_SHAPE } from '../lambdas/adapters/origin-secret-ports';
import { ORIGIN_VERIFY_HEADER, rotateOriginSecret } from './origin-secret-rotation';
import { ServiceFunction } from './service-function';
import { useSecret } from './wiring';

/** How long API Gateway keeps an authorizer's answer for one header value. */
export const ORIGIN_AUTHORIZER_CACHE = Duration.minutes(5);

export class OriginProtection extends Construct {
  /** The value CloudFront sends in `x-origin-verify` to each protected API. */
  readonly secret: Secret;
  readonly function: ServiceFunction;

  private readonly owner: string;

  /** `secret`: one already sent and rotated (the ingest's); otherwise a new one, rotated by `rotate`. */
  constructor(scope: Construct, id: string, owner: string, secret?: Secret) {
    super(scope, id);
    this.owner = owner;
    this.secret =
      secret ??
      new Secret(this, 'Secret', {
        description: `${owner}: value of ${ORIGIN_VERIFY_HEADER} CloudFront sends to the HTTP APIs`,
        generateSecretString: { ...ORIGIN_SECRET_SHAPE },
      });
    this.function = new ServiceFunction(this, 'Authorizer', {
      entry: 'lambdas/hosts/aws/functions/origin-authorizer.ts',
      description: `${owner}: admit only CloudFront (the origin secret header)`,
      memorySize: 256,
      timeout: Duration.seconds(10),
    });
    useSecret(this.function, 'ORIGIN_VERIFY_SECRET_ARN', this.secret);
    this.function.addEnvironment('ORIGIN_VERIFY_HEADER', ORIGIN_VERIFY_HEADER);
  }

  /** An authorizer for one protected HTTP API (its `defaultAuthorizer`): CDK binds each to one API. */
  authorizer(): HttpLambdaAuthorizer {
    return new HttpLambdaAuthorizer('OriginSecret', this.function, {
      identitySource: [`$request.header.${ORIGIN_VERIFY_HEADER}`],
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      resultsCacheTtl: ORIGIN_AUTHORIZER_CACHE,
    });
  }

  /** Rotates the secret every 30 days, with the header of `distributions` (all that send it). */
  rotate(distributions: readonly Distribution[]): ServiceFunction {
    return rotateOriginSecret(this, 'Rotation', {
      secret: this.secret,
      distributions,
      owner: this.owner,
    });
  }

  /** The header CloudFront adds: the secret's value by dynamic reference, resolved at each deployment. */
  get originHeaders(): Record<string, string> {
    return { [ORIGIN_VERIFY_HEADER]: this.secret.secretValue.unsafeUnwrap() };
  }
}
