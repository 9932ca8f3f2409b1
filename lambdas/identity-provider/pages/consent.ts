// identity provider pages -> the consent page for an application that is not the service's own (an MCP client):
// who asks (by the name it gave itself, which the service cannot vouch for), what it asks to do, where
// the person will be sent, and the `Allow` and `Deny` buttons. For an MCP server, a checkbox per
// environment (decisions.md §10), the asked address's ticked, and a sentence of which environments the
// application will be able to change, kept true to the ticks by the stylesheet (`:has`; the pages run no
// script).
import { escapeHtml } from '../../pages/html';
import { identityPage } from './document';

/** An environment the application may be let change: the form's `environment` values. */
export interface EnvironmentChoice {
  environment: 'sandbox' | 'production';
  checked: boolean;
}

export interface ConsentView {
  action: string;
  clientName: string;
  /** Where the answer goes: the host (or app scheme) of the redirect address. */
  returnsTo: string;
  /** The signed-in person's email. */
  personEmail: string;
  /** What the application asks to do, each a sentence fragment ("use …"). */
  requests: string[];
  /** The environments offered, when it asks for an MCP server; none otherwise. */
  environments: EnvironmentChoice[];
}

const LABELS = { sandbox: 'Sandbox', production: 'Production' } as const;

const HINTS = {
  sandbox: 'Testing: sandbox API keys (svc_test_…), webhook endpoints and messages, request history.',
  production:
    'Real contracts: production API keys (svc_live_…), webhook endpoints and messages, request history.',
} as const;

/** One sentence per combination of ticks; the stylesheet shows the one that is true (document.ts). */
const REACH = [
  ['none', 'It will be able to change neither environment.'],
  ['sandbox', 'It will be able to change your sandbox environment only, not production.'],
  ['production', 'It will be able to change your production environment only, not the sandbox.'],
  ['both', 'It will be able to change both your sandbox and your production environments.'],
] as const;

const environmentChoices = (choices: EnvironmentChoice[]): string[] =>
  choices.length === 0
    ? []
    : [
        '<fieldset class="choices">',
        '<legend>Environments it may change</legend>',
        ...choices.flatMap(({ environment, checked }) => [
          '<div class="choice">',
          `<input type="checkbox" id="environment-${environment}" name="environment" value="${environment}"${checked ? ' checked' : ''} aria-describedby="environment-${environment}-hint">`,
          `<label for="environment-${environment}">${LABELS[environment]}</label>`,
          '</div>',
          `<p class="hint" id="environment-${environment}-hint">${escapeHtml(HINTS[environment])}</p>`,
        ]),
        '</fieldset>',
        `<p class="reach">${REACH.map(([ticks, sentence]) => `<strong class="reach-${ticks}">${sentence}</strong>`).join('')} Whatever you tick, it can see and create your organisation and integrations.</p>`,
      ];

export const renderConsent = (view: ConsentView): string =>
  identityPage(`Allow ${view.clientName}?`, [
    `<h1>Allow <span class="address">${escapeHtml(view.clientName)}</span> to act for you?</h1>`,
    `<p>You are signed in as <strong class="address">${escapeHtml(view.personEmail)}</strong>. An application that calls itself <strong class="address">${escapeHtml(view.clientName)}</strong> asks to:</p>`,
    '<ul>',
    ...view.requests.map((request) => `<li class="address">${escapeHtml(request)}</li>`),
    '</ul>',
    `<form method="post" action="${escapeHtml(view.action)}">`,
    ...environmentChoices(view.environments),
    `<p>Your answer goes back to <strong class="address">${escapeHtml(view.returnsTo)}</strong>. Allow it only if you started this from an application you trust.</p>`,
    '<div class="actions">',
    '<button type="submit" name="decision" value="allow">Allow</button>',
    '<button type="submit" name="decision" value="deny" class="secondary">Deny</button>',
    '</div>',
    '</form>',
  ]);
