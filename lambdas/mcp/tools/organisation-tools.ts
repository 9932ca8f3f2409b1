// mcp -> the tools of the person's organisation, its integrations, its sandbox budget and the events
// there are: the same core functions as the portal's overview and integrations pages.
import * as z from 'zod/mini';
import { listEventTypes } from '../../core/events';
import {
  createIntegration,
  createOrganisation,
  getOrganisation,
  listIntegrations,
  organisationOf,
} from '../../core/organisations';
import { getSandboxBudget } from '../../core/sandbox-budget';
import {
  EventTypeShape,
  IntegrationShape,
  listOf,
  OrganisationOverviewShape,
  OrganisationShape,
  SandboxBudgetShape,
} from '../../core/shapes';
import { described } from './shapes';
import { type Tool, type ToolContext, tool } from './tool';

/** The caller's organisation id; `organisation_required` before they have one. */
export const callerOrganisation = (context: ToolContext): Promise<string> =>
  organisationOf(context.workspace.directory, context.personId);

const nothing = z.strictObject({});

const nameArgument = (what: string, example: string) =>
  described(z.string(), `The ${what}'s name, 1 to 100 characters, such as "${example}".`);

export const organisationTools: Tool[] = [
  tool({
    name: 'get_organisation',
    title: 'Get your organisation',
    description:
      'Reads your organisation (null if you have not created one yet), its sandbox budget of processed PDFs, and its integrations. Changes nothing. Call this first: every other tool but create_organisation needs the organisation.',
    input: nothing,
    output: OrganisationOverviewShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: ({ workspace, personId }) =>
      getOrganisation(workspace.directory, workspace.environments.sandbox.ports, personId),
  }),
  tool({
    name: 'create_organisation',
    title: 'Create your organisation',
    description:
      'Creates your organisation, which holds your integrations, API keys and webhook endpoints in both environments. A person has one organisation: a second call answers organisation_exists. Ask the person for the name; do not invent one.',
    input: z.strictObject({ name: nameArgument('organisation', 'Harbour Conveyancing') }),
    output: OrganisationShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: ({ workspace, personId }, { name }) => createOrganisation(workspace.directory, personId, name),
  }),
  tool({
    name: 'list_integrations',
    title: 'List integrations',
    description:
      "Lists your organisation's integrations (type contract_reviews), newest first. Each exists in both environments; API keys and webhook endpoints belong to an integration in one environment. Changes nothing.",
    input: nothing,
    output: listOf(IntegrationShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context) => listIntegrations(context.workspace.directory, await callerOrganisation(context)),
  }),
  tool({
    name: 'create_integration',
    title: 'Create an integration',
    description:
      'Creates an integration of type contract_reviews in your organisation, in both environments at once: the program of yours that will call the API. Each call makes a new one.',
    input: z.strictObject({ name: nameArgument('integration', 'Conveyancing app') }),
    output: IntegrationShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: async (context, { name }) =>
      createIntegration(context.workspace.directory, await callerOrganisation(context), name),
  }),
  tool({
    name: 'get_sandbox_budget',
    title: 'Get the sandbox budget',
    description:
      "Reads your organisation's sandbox budget: processed PDFs allowed in the sandbox in all, used, and remaining (every contract and every new version counts). Only the service operator can raise it. Changes nothing.",
    input: nothing,
    output: SandboxBudgetShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context) =>
      getSandboxBudget(context.workspace.environments.sandbox.ports, await callerOrganisation(context)),
  }),
  tool({
    name: 'list_event_types',
    title: 'List webhook event types',
    description:
      'Lists the events a webhook endpoint can subscribe to, each with when it happens and the data it carries. Changes nothing.',
    input: nothing,
    output: listOf(EventTypeShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context) => {
      await callerOrganisation(context);
      return listEventTypes();
    },
  }),
];
