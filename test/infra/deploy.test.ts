// infra -> the one deploy command (bin/deploy.ts, lib/deploy-preflight.ts): each refusal is one line and
// comes before anything reaches AWS, a complete context passes, and the command deploys the stages, then
// the identity stack, then the stages' shared stacks, from one synthesised assembly.
import { readFileSync } from 'node:fs';
import { runCollected } from '../../bin/run-collected';
import { DEPLOY_STEPS, deployRefusal } from '../../lib/deploy-preflight';
import { fromRoot } from '../../lib/paths';

const repositoryDefaults = (): Record<string, unknown> =>
  JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')).context;

const ZONE = { id: 'Z0123456789', name: 'acme-homes.co.uk' };
const domains = (environment: 'sandbox' | 'production') => {
  const at = environment === 'production' ? '' : 'sandbox.';
  return {
    api: `api.${at}${ZONE.name}`,
    pages: `pages.${at}${ZONE.name}`,
    frame: `form.${at}${ZONE.name}`,
    hostedZone: ZONE,
  };
};

/** A context a first deployment from us-east-1 accepts: real addresses, production in a hosted zone. */
const complete = (): Record<string, unknown> => ({
  ...repositoryDefaults(),
  'service:sandboxBaseUrl': `https://api.sandbox.${ZONE.name}`,
  'service:productionBaseUrl': `https://api.${ZONE.name}`,
  'service:sandbox': { domains: domains('sandbox'), alarmEmail: `ops@${ZONE.name}` },
  'service:production': { domains: domains('production'), alarmEmail: `ops@${ZONE.name}` },
  'service:identity': { email: { from: `no-reply@${ZONE.name}` } },
});

const pinned = (region: string) => ({ account: '111111111111', region });

const refusalOf = (overrides: Record<string, unknown>, region: string | undefined = 'us-east-1') => {
  const refusal = deployRefusal({ ...complete(), ...overrides }, region);
  expect(refusal).toBeDefined();
  expect(refusal).not.toContain('\n');
  return refusal as string;
};

test('a complete context passes, from us-east-1 or with every stack pinned to one other region', () => {
  expect(deployRefusal(complete(), 'us-east-1')).toBeUndefined();
  const elsewhere = {
    ...complete(),
    'service:sandbox': { ...(complete()['service:sandbox'] as object), ...pinned('eu-west-2') },
    'service:production': { ...(complete()['service:production'] as object), ...pinned('eu-west-2') },
    'service:identity': { ...(complete()['service:identity'] as object), ...pinned('eu-west-2') },
  };
  expect(deployRefusal(elsewhere, 'ap-southeast-2')).toBeUndefined();
  expect(deployRefusal(elsewhere, undefined)).toBeUndefined();
});

test('refuses the repository’s placeholder base addresses, and any placeholder domain or alarm address', () => {
  expect(deployRefusal(repositoryDefaults(), 'us-east-1')).toMatch(
    /^CDK context service:sandboxBaseUrl is a placeholder \(https:\/\/sandbox\.api\.example\.com\)/,
  );
  for (const url of [
    'https://api.example.org',
    'https://api.example',
    'https://api.test',
    'https://localhost',
  ])
    expect(refusalOf({ 'service:productionBaseUrl': url })).toContain(
      `service:productionBaseUrl is a placeholder (${url})`,
    );
  expect(
    refusalOf({
      'service:sandbox': {
        domains: { api: `api.sandbox.${ZONE.name}`, pages: 'pages.example.com', frame: `form.${ZONE.name}` },
      },
    }),
  ).toBe('CDK context service:sandbox.domains names a placeholder domain (pages.example.com)');
  expect(
    refusalOf({ 'service:sandbox': { domains: domains('sandbox'), alarmEmail: 'ops@example.com' } }),
  ).toBe('CDK context service:sandbox.alarmEmail is a placeholder address (ops@example.com)');
});

test('refuses a production stage without a hosted zone, and a base address that is not the stage’s api domain', () => {
  const { hostedZone: _, ...unzoned } = domains('production');
  expect(refusalOf({ 'service:production': { domains: unzoned } })).toMatch(
    /^CDK context service:production\.domains\.hostedZone is missing: /,
  );
  expect(refusalOf({ 'service:production': {} })).toMatch(
    /service:production\.domains\.hostedZone is missing/,
  );
  expect(refusalOf({ 'service:productionBaseUrl': `https://www.${ZONE.name}` })).toBe(
    `CDK context service:productionBaseUrl (www.${ZONE.name}) must be https:// service:production.domains.api (api.${ZONE.name})`,
  );
});

test('refuses an edge stack outside us-east-1 unless the cross-region wiring is on, and no region at all', () => {
  expect(refusalOf({}, 'eu-west-2')).toMatch(
    /^stage Sandbox is not pinned, so its edge stack \(CloudFront's web ACL\) would deploy to eu-west-2, and CloudFront needs it in us-east-1/,
  );
  // Both stages pinned, the identity stack not: its edge stack would land in the CLI's region.
  const stagesPinned = {
    'service:sandbox': { domains: domains('sandbox'), ...pinned('eu-west-2') },
    'service:production': { domains: domains('production'), ...pinned('eu-west-2') },
  };
  expect(refusalOf(stagesPinned, 'eu-west-2')).toMatch(/^the identity stack is not pinned/);
  expect(deployRefusal(complete(), undefined)).toMatch(/^no AWS region for stage Sandbox: set AWS_REGION/);
});

test('refuses stages and an identity stack in different regions or accounts (they read each other’s SSM parameters)', () => {
  const stages = {
    'service:sandbox': { domains: domains('sandbox'), ...pinned('eu-west-2') },
    'service:production': { domains: domains('production'), ...pinned('eu-west-2') },
  };
  const sender = complete()['service:identity'] as object;
  expect(refusalOf({ ...stages, 'service:identity': { ...sender, ...pinned('eu-west-1') } })).toBe(
    "stage Sandbox (eu-west-2) and the identity stack (eu-west-1) must share a region: they read each other's SSM parameters",
  );
  expect(
    refusalOf({ ...stages, 'service:identity': { ...sender, account: '222222222222', region: 'eu-west-2' } }),
  ).toMatch(/^the stages and the identity stack must share an account/);
});

test('refuses user pools without an SES sender, or with a placeholder one (production’s sign-ups depend on it)', () => {
  expect(refusalOf({ 'service:identity': {} })).toMatch(
    /^CDK context service:identity\.email is missing: the user pools would send .* through Cognito's own sender, 50 emails a day/,
  );
  expect(refusalOf({ 'service:identity': { email: { from: 'no-reply@example.com' } } })).toBe(
    'CDK context service:identity.email.from is a placeholder address (no-reply@example.com)',
  );
});

test('a context value of the wrong shape is refused in one line too', () => {
  expect(refusalOf({ 'service:production': '{"domains": ' })).toMatch(
    /^CDK context service:production is not valid JSON/,
  );
  expect(refusalOf({ 'service:sandboxBaseUrl': 'http://api.sandbox.acme-homes.co.uk' })).toMatch(
    /^CDK context service:sandboxBaseUrl must be an https URL/,
  );
});

/** Runs bin/deploy.ts with no AWS set-up of the machine's own; only `region` (if any) is given. */
const deploy = (args: string[], region?: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('AWS_') || name.startsWith('CDK_')) delete env[name];
  Object.assign(env, {
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
    ...(region && { AWS_REGION: region }),
  });
  return runCollected(process.execPath, ['--import', 'tsx', 'bin/deploy.ts', ...args], {
    cwd: fromRoot('.'),
    env,
  });
};

const contextArgs = (context: Record<string, unknown>): string[] =>
  Object.entries(context).flatMap(([key, value]) => [
    '-c',
    `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  ]);

test('the command refuses in one line on stderr, exit 1, no stack trace, nothing run', async () => {
  const defaults = await deploy(['--plan'], 'us-east-1');
  expect(defaults).toEqual({
    code: 1,
    stdout: '',
    stderr:
      "deploy refused: CDK context service:sandboxBaseUrl is a placeholder (https://sandbox.api.example.com): give the sandbox API's real https address\n",
  });
  const { 'service:sandbox': _, ...rest } = complete();
  const fromLondon = await deploy(['--plan', ...contextArgs(rest)], 'eu-west-2');
  expect(fromLondon.code).toBe(1);
  expect(fromLondon.stdout).toBe('');
  expect(fromLondon.stderr.trimEnd().split('\n')).toEqual([
    expect.stringMatching(/^deploy refused: stage Sandbox is not pinned, .* would deploy to eu-west-2/),
  ]);
}, 120_000);

test('with a complete context, one synthesis, then the stages, the identity stack and the shared stacks', async () => {
  const planned = await deploy(
    ['--plan', ...contextArgs(complete()), '--', '--require-approval', 'never'],
    'us-east-1',
  );
  expect(planned.stderr).toBe('');
  expect(planned.code).toBe(0);
  const lines = planned.stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^npx cdk synth --quiet --output cdk\.out -c /);
  expect(lines.slice(1)).toEqual(
    DEPLOY_STEPS.map(
      (selectors) => `npx cdk deploy --app cdk.out ${selectors.join(' ')} --require-approval never`,
    ),
  );
  expect(DEPLOY_STEPS).toEqual([
    [
      'Sandbox/Edge',
      'Sandbox/Stateful',
      'Sandbox/Stateless',
      'Production/Edge',
      'Production/Stateful',
      'Production/Stateless',
    ],
    ['IdentityEdge', 'Identity'],
    ['Sandbox/Shared', 'Production/Shared'],
  ]);
}, 120_000);
