// infra -> nothing bypasses CloudFront where a stage has no hosted zone (issue 29 item 1): its APIs then keep
// their `execute-api` addresses, so every route, the shared stacks' MCP routes and the identity stack's
// included, admits only a request carrying CloudFront's origin secret (lib/origin-protection.ts); every
// distribution sends the secret to each such origin; and every secret sent is rotated by a function that
// changes every distribution sending it (lib/origin-secret-rotation.ts). Synthesised with the repository's
// context (no domains at all), unbundled.
import { ORIGIN_VERIFY_HEADER } from '../../lib/origin-secret-rotation';
import { openExecuteApis, type SynthesisedTemplate, type TemplateResource } from '../../lib/template-checks';
import { SYNTH_DEADLINE_MS, type SynthesisedApp, synthServiceApp, templatesOf } from './synth';

let synthesised: SynthesisedApp;
let templates: SynthesisedTemplate[];

beforeAll(async () => {
  synthesised = await synthServiceApp({ bundle: 'none', identity: true });
  templates = templatesOf(synthesised);
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

/** `[template name, logical id, resource]` of every resource of `type` in every template. */
const everyResource = (type: string): Array<[string, string, TemplateResource]> =>
  templates.flatMap(({ name, template }) =>
    Object.entries(template.Resources ?? {})
      .filter(([, resource]) => resource.Type === type)
      .map(([id, resource]): [string, string, TemplateResource] => [name, id, resource]),
  );

/** The logical ids a value refers to with `Ref`. */
const refsIn = (value: unknown): string[] =>
  [...JSON.stringify(value ?? null).matchAll(/"Ref":"([A-Za-z0-9]+)"/g)].map(([, id]) => id as string);

type Origin = {
  DomainName?: unknown;
  OriginCustomHeaders?: Array<{ HeaderName: string; HeaderValue: unknown }>;
};
const originsOf = (distribution: TemplateResource): Origin[] =>
  (distribution.Properties?.DistributionConfig as { Origins?: Origin[] } | undefined)?.Origins ?? [];

test('every route of every HTTP API, the shared stacks’ MCP routes included, needs the origin secret authorizer', () => {
  const routes = everyResource('AWS::ApiGatewayV2::Route');
  // The stages' APIs and frame APIs, the identity stack's two, and both shared stacks' MCP routes.
  expect(new Set(routes.map(([name]) => name))).toEqual(
    new Set([
      'contract-service-sandbox-stateless/HttpApi',
      'contract-service-sandbox-stateless',
      'contract-service-sandbox-shared',
      'contract-service-production-stateless/HttpApi',
      'contract-service-production-stateless',
      'contract-service-production-shared',
      'contract-service-identity',
    ]),
  );
  const unprotected = routes
    .filter(([, , route]) => route.Properties?.AuthorizationType !== 'CUSTOM')
    .map(([name, id]) => `${name}: ${id}`);
  expect(unprotected).toEqual([]);
  expect(
    templates.flatMap(({ name, template }) => openExecuteApis(template).map((id) => `${name}: ${id}`)),
  ).toEqual([]);
  // The MCP routes use the stage API's own authorizer, read from the stage's SSM parameter at deployment.
  for (const environment of ['sandbox', 'production']) {
    const shared = templates.find(({ name }) => name === `contract-service-${environment}-shared`);
    expect(JSON.stringify(shared?.template)).toContain(`/contract-service/${environment}/originAuthorizerId`);
  }
});

test('every distribution sends the origin secret to each execute-api origin', () => {
  const apiOrigins = everyResource('AWS::CloudFront::Distribution').flatMap(([name, id, distribution]) =>
    originsOf(distribution)
      .filter((origin) => JSON.stringify(origin.DomainName).includes('execute-api'))
      .map((origin) => ({ at: `${name}: ${id}`, headers: origin.OriginCustomHeaders ?? [] })),
  );
  // Each stage's API and frame API, the identity provider's, the portal's and the back office's.
  expect(apiOrigins.length).toBe(7);
  expect(
    apiOrigins
      .filter(({ headers }) => !headers.some((header) => header.HeaderName === ORIGIN_VERIFY_HEADER))
      .map(({ at }) => at),
  ).toEqual([]);
});

test('every origin secret a distribution sends is rotated by a function told of every distribution sending it', () => {
  const unrotated: string[] = [];
  for (const { name, template } of templates) {
    const resources = template.Resources ?? {};
    const schedules = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::SecretsManager::RotationSchedule',
    );
    for (const [distributionId, distribution] of Object.entries(resources)) {
      if (distribution.Type !== 'AWS::CloudFront::Distribution') continue;
      const secrets = originsOf(distribution).flatMap((origin) =>
        (origin.OriginCustomHeaders ?? [])
          .filter((header) => header.HeaderName === ORIGIN_VERIFY_HEADER)
          .flatMap((header) => refsIn(header.HeaderValue)),
      );
      for (const secret of new Set(secrets)) {
        const rotates = schedules.some((schedule) => {
          if (!refsIn(schedule.Properties?.SecretId).includes(secret)) return false;
          const functionId = JSON.stringify(schedule.Properties?.RotationLambdaARN).match(
            /"Fn::GetAtt":\["([A-Za-z0-9]+)"/,
          )?.[1];
          if (functionId === undefined) return false;
          const variables = (resources[functionId]?.Properties?.Environment as { Variables?: object })
            ?.Variables;
          return refsIn((variables as Record<string, unknown> | undefined)?.DISTRIBUTION_IDS).includes(
            distributionId,
          );
        });
        if (!rotates) unrotated.push(`${name}: ${distributionId} sends ${secret}`);
      }
    }
  }
  expect(unrotated).toEqual([]);
});
