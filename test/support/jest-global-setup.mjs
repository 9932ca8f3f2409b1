// test support -> Jest's globalSetup: the shared stacks' host (shared-stacks-host.ts), its address passed
// to the workers in the environment they inherit. Nothing is started until a test file asks. Plain
// JavaScript loading the TypeScript through tsx: Jest would load this file as CommonJS otherwise.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { startSharedStacksHost, keepHostForTeardown } = await tsImport(
    './shared-stacks-host.ts',
    import.meta.url,
  );
  const { SHARED_STACKS_VARIABLE } = await tsImport('./shared-stacks.ts', import.meta.url);
  const host = await startSharedStacksHost();
  process.env[SHARED_STACKS_VARIABLE] = host.url;
  keepHostForTeardown(host);
}
