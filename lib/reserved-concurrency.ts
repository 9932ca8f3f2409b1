// infra -> reserved concurrency per stage (issue 29 item 4): the sandbox and production share one account's
// Lambda concurrency (1,000 in a fresh account), so a burst in one could throttle the other. Lambda has no
// pool per group of functions, only a reservation per function, which both guarantees and caps it:
// reserving each of the sandbox's functions fences the sandbox in, and production and the identity stack
// share what is left unreserved. Production reserves nothing by default (a cap per function would throttle
// its busiest one first); either stage's `reservedConcurrency` in context changes that (README, Operations).
import { type IAspect, Token } from 'aws-cdk-lib';
import { CfnEventSourceMapping, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import type { Environment } from './environments';
import { ServiceFunction } from './service-function';

/** Each function's reservation where the stage's context gives none; 0 reserves nothing. */
export const DEFAULT_RESERVED_CONCURRENCY: Readonly<Record<Environment, number>> = {
  sandbox: 5,
  production: 0,
};

/** The most of a function's queue batches its event sources run at once (0 without any). */
const queueConcurrencyOf = (fn: ServiceFunction): number =>
  Math.max(
    0,
    ...fn.node
      .findAll()
      .filter((node): node is CfnEventSourceMapping => node instanceof CfnEventSourceMapping)
      .map((mapping) => {
        const scaling = mapping.scalingConfig as CfnEventSourceMapping.ScalingConfigProperty | undefined;
        const most = scaling?.maximumConcurrency;
        return typeof most === 'number' && !Token.isUnresolved(most) ? most : 0;
      }),
  );

/**
 * Reserves `perFunction` concurrent executions for every function of the service in the scope it is added
 * to (a stage), or more for a queue consumer whose event source runs more batches at once (fewer would
 * throttle its own batches).
 */
export class ReservedConcurrency implements IAspect {
  constructor(private readonly perFunction: number) {}

  visit(node: IConstruct): void {
    if (this.perFunction === 0 || !(node instanceof ServiceFunction)) return;
    (node.node.defaultChild as CfnFunction).reservedConcurrentExecutions = Math.max(
      this.perFunction,
      queueConcurrencyOf(node),
    );
  }
}
