import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { REHEARSAL_CONTEXT } from './bin/deploy-check/rehearsal';
import { buildOnboardingAssets } from './frontend/onboarding/build';
import { buildPortalAssets } from './frontend/portal/build';
import { addIdentityStack, addServiceStages } from './lib/service-app';
import { functionsWithoutRetention, openExecuteApis, placeholderHosts, synthesisedTemplates } from './lib/template-checks';
const context = process.argv[2] === 'plain' ? JSON.parse((await import('node:fs')).readFileSync('cdk.json','utf8')).context : REHEARSAL_CONTEXT;
const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'scratch-')), context: { ...context, 'aws:cdk:bundling-stacks': [] } });
addIdentityStack(app, await buildPortalAssets(), addServiceStages(app, await buildOnboardingAssets()));
app.synth();
for (const { name, template } of synthesisedTemplates(app)) {
  for (const id of functionsWithoutRetention(template)) console.log(name, 'noretention', id, JSON.stringify(template.Resources?.[id]?.Properties?.LoggingConfig ?? null));
  for (const id of openExecuteApis(template)) console.log(name, 'open', id);
  const p = placeholderHosts(template); if (p.length) console.log(name, 'placeholder', p);
}
