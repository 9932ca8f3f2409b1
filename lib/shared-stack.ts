// infra -> what a stage shares with the identity stack and the other environment, in a stack of its own
// (`contract-service-<env>-shared`) deployed after both stages and the identity stack (bin/deploy.ts):
// the MCP server (lib/mcp-server.ts), routed on the stage's HTTP API, and the operators' reads of the
// identity table with the output naming it. Everything it reaches is read from SSM parameters at
// deployment (lib/identity-context.ts), never a cross-stack export, so no other stack waits on it.
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import { ENVIRONMENTS } from '../lambdas/core/model';
import type { BaseUrls, Environment } from './environments';
import { environmentFromParameters, identityProviderFromParameters } from './identity-context';
import { McpServer } from './mcp-server';
import { OperatorIdentityPolicy } from './operator-policy';

export interface SharedStackProps extends StackProps {
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  /** Whether the stage's APIs keep their `execute-api` addresses (no hosted zone): see lib/mcp-server.ts. */
  readonly originProtected: boolean;
}

export class SharedStack extends Stack {
  readonly mcp: McpServer;
  readonly operatorIdentityPolicy: OperatorIdentityPolicy;

  constructor(scope: Construct, id: string, props: SharedStackProps) {
    super(scope, id, props);
    const { environment } = props;
    const identityProvider = identityProviderFromParameters(this);
    const environments = Object.fromEntries(
      ENVIRONMENTS.map((each) => [each, environmentFromParameters(this, each)]),
    ) as Record<Environment, ReturnType<typeof environmentFromParameters>>;
    this.mcp = new McpServer(this, 'Mcp', {
      environment,
      baseUrls: props.baseUrls,
      httpApi: HttpApi.fromHttpApiAttributes(this, 'Api', {
        httpApiId: environments[environment].httpApiId,
      }),
      identityProvider,
      environments,
      ...(props.originProtected && { originAuthorizerId: environments[environment].originAuthorizerId }),
    });
    this.operatorIdentityPolicy = new OperatorIdentityPolicy(this, 'OperatorIdentity', {
      environment,
      identityTable: { name: identityProvider.tableName, keyArn: identityProvider.tableKeyArn },
    });
    new CfnOutput(this, 'OperatorIdentityPolicyArn', {
      description:
        'Managed policy of the operator tool’s reads of the identity table: attach it to the operators',
      value: this.operatorIdentityPolicy.policy.managedPolicyArn,
    });
    new CfnOutput(this, 'IdentityTableName', {
      description: 'The identity table: organisations and integrations (the identity stack’s)',
      value: identityProvider.tableName,
    });
  }
}
