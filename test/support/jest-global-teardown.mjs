// test support -> Jest's globalTeardown: stops the shared stacks and DynamoDB Local, removes their data.
import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { keptHost } = await tsImport('./shared-stacks-host.ts', import.meta.url);
  await keptHost()?.stop();
}
