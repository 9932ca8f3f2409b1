// bin/ops -> the operator tool's API key commands, over the core functions the portal and the MCP server
// call: make a named key (printed once), list an integration's keys, revoke one.
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '../../lambdas/core/api-keys';
import { ActionRefused } from '../../lambdas/core/errors';
import { ENVIRONMENTS, type Environment } from '../../lambdas/core/model';
import type { Directory } from '../../lambdas/core/organisations';
import { type EnvironmentServices, readEnvironment, scopeOf } from './scope';

export const API_KEY_USAGE = `  api-key-create --environment E [--integration I] [--name N]
                                        a new API key; prints it once with its id and prefix
  api-key-list --environment E [--integration I]   the integration's keys (never the keys themselves)
  api-key-revoke <key_id>               token exchange refuses it at once, its tokens within 60 s`;

/** Runs an API key command, or returns undefined when `command` is not one. */
export const runApiKeyCommand = async (
  command: string,
  argv: string[],
  services: Record<Environment, EnvironmentServices>,
  directory: Directory,
): Promise<unknown> => {
  if (!command.startsWith('api-key-')) return undefined;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { environment: { type: 'string' }, integration: { type: 'string' }, name: { type: 'string' } },
  });
  switch (command) {
    case 'api-key-create': {
      const environment = readEnvironment(values.environment);
      const scope = await scopeOf(directory, environment, values.integration);
      return createApiKey(services[environment].ports, scope, values.name);
    }
    case 'api-key-list': {
      const environment = readEnvironment(values.environment);
      return listApiKeys(
        services[environment].ports,
        await scopeOf(directory, environment, values.integration),
      );
    }
    case 'api-key-revoke': {
      const [id] = positionals;
      if (!id) throw new ActionRefused('name the key: key_…');
      for (const environment of ENVIRONMENTS) {
        const { ports } = services[environment];
        const key = await ports.apiKeys.getApiKey(id);
        if (key) return revokeApiKey(ports, key.organisationId, id);
      }
      throw new ActionRefused(`no API key ${id} in either environment`);
    }
    default:
      throw new ActionRefused(`unknown command ${command}`);
  }
};
