// bin/ops -> the operator tool's API key commands, over the core functions the portal and the MCP server
// call: make a named key (printed once), list an integration's keys, revoke one.
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, revokeApiKey } from '../../lambdas/core/api-keys';
import { ActionRefused } from '../../lambdas/core/errors';
import { type Directory, keyHolder } from '../../lambdas/core/organisations';
import { lookedIn, type Reach, reached, readEnvironment, scopeOf, servicesIn } from './scope';

export const API_KEY_USAGE = `  api-key-create --environment E [--integration I] [--name N]
                                        a new API key; prints it once with its id and prefix
  api-key-list --environment E [--integration I]   the integration's keys (never the keys themselves)
  api-key-revoke <key_id>               token exchange refuses it at once, its tokens within 60 s`;

/** Runs an API key command, or returns undefined when `command` is not one. */
export const runApiKeyCommand = async (
  command: string,
  argv: string[],
  services: Reach,
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
      const environment = readEnvironment(values.environment, services);
      const scope = await scopeOf(directory, environment, values.integration);
      return createApiKey(
        servicesIn(services, environment).ports,
        await keyHolder(directory, scope),
        values.name,
      );
    }
    case 'api-key-list': {
      const environment = readEnvironment(values.environment, services);
      return listApiKeys(
        servicesIn(services, environment).ports,
        await scopeOf(directory, environment, values.integration),
      );
    }
    case 'api-key-revoke': {
      const [id] = positionals;
      if (!id) throw new ActionRefused('name the key: key_…');
      for (const [, { ports }] of reached(services)) {
        const key = await ports.apiKeys.getApiKey(id);
        if (key) return revokeApiKey(ports, key.organisationId, id);
      }
      throw new ActionRefused(`no API key ${id} in ${lookedIn(services)}`);
    }
    default:
      throw new ActionRefused(`unknown command ${command}`);
  }
};
