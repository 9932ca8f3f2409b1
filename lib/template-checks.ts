// infra -> what every synthesised template of the app must keep to before it is deployed (issue 29): room
// under CloudFormation's 500 resources, no `Fn::ImportValue` (an export in use blocks replacing what it
// names), no `execute-api` address that answers beside CloudFront, no Lambda function whose logs are kept
// forever, no state machine logging outside the vended logs prefix, no placeholder domain. Read by `npm run deploy:check` and the infra tests; nested stacks count
// as templates of their own, as CloudFormation counts them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type App, NestedStack, Stack, Stage } from 'aws-cdk-lib';
import { isPlaceholderHost } from './deploy-preflight';

/** CloudFormation's limit is 500; past this a stack has no room for the next feature. */
export const MAX_RESOURCES = 350;

export type TemplateResource = { Type: string; Properties?: Record<string, unknown> };
export type TemplateJson = { Resources?: Record<string, TemplateResource> };

export interface SynthesisedTemplate {
  /** The stack's name, or `<parent stack name>/<nested stack id>` for a nested stack. */
  readonly name: string;
  readonly template: TemplateJson;
}

/**
 * Every template `app.synth()` wrote, nested stacks' included. `directoryOf`: where a stack's template is, if
 * not in its stage's output directory (an assembly the same app synthesised elsewhere).
 */
export const synthesisedTemplates = (
  app: App,
  directoryOf: (stack: Stack) => string | undefined = (stack) => Stage.of(stack)?.outdir,
): SynthesisedTemplate[] =>
  app.node
    .findAll()
    .filter((construct): construct is Stack => Stack.isStack(construct))
    .map((stack) => {
      const parent = stack.nestedStackParent;
      const name =
        parent && NestedStack.isNestedStack(stack) ? `${parent.stackName}/${stack.node.id}` : stack.stackName;
      const directory = directoryOf(stack);
      if (!directory) throw new Error(`${name} is in no stage`);
      return { name, template: JSON.parse(readFileSync(join(directory, stack.templateFile), 'utf8')) };
    });

export const resourceCount = (template: TemplateJson): number => Object.keys(template.Resources ?? {}).length;

/** How many times the template imports another stack's export. */
export const importCount = (template: TemplateJson): number =>
  JSON.stringify(template).match(/"Fn::ImportValue"/g)?.length ?? 0;

/**
 * The HTTP APIs whose `execute-api` address answers a caller without CloudFront's origin secret: neither
 * switched off (lib/http-api-origin.ts) nor every route behind a Lambda authorizer (lib/origin-protection.ts).
 */
export const openExecuteApis = (template: TemplateJson): string[] => {
  const resources = Object.entries(template.Resources ?? {});
  const routesOf = (id: string) =>
    resources.filter(
      ([, resource]) =>
        resource.Type === 'AWS::ApiGatewayV2::Route' &&
        JSON.stringify(resource.Properties?.ApiId) === JSON.stringify({ Ref: id }),
    );
  return resources
    .filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Api')
    .filter(([, resource]) => resource.Properties?.DisableExecuteApiEndpoint !== true)
    .filter(([id]) => {
      const routes = routesOf(id);
      return (
        routes.length === 0 || routes.some(([, route]) => route.Properties?.AuthorizationType !== 'CUSTOM')
      );
    })
    .map(([id]) => id);
};

/** Each function whose log group is not one of the template's with a retention. */
export const functionsWithoutRetention = (template: TemplateJson): string[] => {
  const resources = template.Resources ?? {};
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
    .filter(([, resource]) => {
      const logGroup = (resource.Properties?.LoggingConfig as { LogGroup?: { Ref?: string } } | undefined)
        ?.LogGroup?.Ref;
      const group = logGroup === undefined ? undefined : resources[logGroup];
      return group?.Type !== 'AWS::Logs::LogGroup' || group.Properties?.RetentionInDays === undefined;
    })
    .map(([id]) => id);
};

/**
 * Each state machine that does not log to one of the template's log groups under `/aws/vendedlogs/` with a
 * retention: elsewhere Step Functions needs a log resource policy per group, and the account's allows 5,120
 * characters, which a few groups of long names fill.
 */
export const stateMachinesWithoutVendedLogs = (template: TemplateJson): string[] => {
  const resources = template.Resources ?? {};
  return Object.entries(resources)
    .filter(([, resource]) => resource.Type === 'AWS::StepFunctions::StateMachine')
    .filter(([, resource]) => {
      const logging = resource.Properties?.LoggingConfiguration as
        | {
            Destinations?: {
              CloudWatchLogsLogGroup?: { LogGroupArn?: { 'Fn::GetAtt'?: [string, string] } };
            }[];
          }
        | undefined;
      const destinations = logging?.Destinations ?? [];
      if (destinations.length === 0) return true;
      return destinations.some((destination) => {
        const id = destination.CloudWatchLogsLogGroup?.LogGroupArn?.['Fn::GetAtt']?.[0];
        const group = id === undefined ? undefined : resources[id];
        return (
          group?.Type !== 'AWS::Logs::LogGroup' ||
          group.Properties?.RetentionInDays === undefined ||
          !JSON.stringify(group.Properties?.LogGroupName ?? '').includes('"/aws/vendedlogs/')
        );
      });
    })
    .map(([id]) => id);
};

/** The placeholder domains (`example.com`, `.test`…) the template names. */
export const placeholderHosts = (template: TemplateJson): string[] => [
  ...new Set(
    [...JSON.stringify(template).matchAll(/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi)]
      .map(([host]) => host)
      .filter(isPlaceholderHost),
  ),
];

/** Every failure of `templates` against the checks above, a line each naming the template. */
export const templateFailures = (templates: readonly SynthesisedTemplate[]): string[] =>
  templates.flatMap(({ name, template }) => {
    const failures: string[] = [];
    const count = resourceCount(template);
    if (count > MAX_RESOURCES) failures.push(`${name}: ${count} resources, over ${MAX_RESOURCES}`);
    const imports = importCount(template);
    if (imports > 0) failures.push(`${name}: ${imports} Fn::ImportValue (cross-stack exports)`);
    for (const id of openExecuteApis(template))
      failures.push(`${name}: ${id}'s execute-api address answers without CloudFront`);
    for (const id of functionsWithoutRetention(template))
      failures.push(`${name}: Lambda function ${id} has no log group with a retention`);
    for (const id of stateMachinesWithoutVendedLogs(template))
      failures.push(`${name}: state machine ${id} does not log under /aws/vendedlogs/ with a retention`);
    const placeholders = placeholderHosts(template);
    if (placeholders.length > 0) failures.push(`${name}: placeholder domain ${placeholders.join(', ')}`);
    return failures;
  });

/** The resources per template, largest first, and the largest against the limits: the lines to print. */
export const sizeReport = (templates: readonly SynthesisedTemplate[]): string[] => {
  const sizes = templates
    .map(({ name, template }) => [name, resourceCount(template)] as const)
    .sort((a, b) => b[1] - a[1]);
  const [largest] = sizes;
  return [
    'resources per stack:',
    ...sizes.map(([name, count]) => `  ${String(count).padStart(4)}  ${name}`),
    ...(largest
      ? [`largest: ${largest[0]} (${largest[1]} of ${MAX_RESOURCES} allowed, 500 CloudFormation's limit)`]
      : []),
  ];
};
