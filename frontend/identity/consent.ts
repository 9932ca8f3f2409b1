// frontend/identity -> the consent page for an application that is not the service's own (an MCP client):
// who asks (by the name it gave itself, which the service cannot vouch for), what it asks to do, where
// the person will be sent, and the `Allow` and `Deny` buttons.
import { escapeHtml } from '../pages/html';
import { identityPage } from './document';

export interface ConsentView {
  action: string;
  clientName: string;
  /** Where the answer goes: the host (or app scheme) of the redirect address. */
  returnsTo: string;
  /** The signed-in person's email. */
  personEmail: string;
  /** What the application asks to do, each a sentence fragment ("use …"). */
  requests: string[];
}

export const renderConsent = (view: ConsentView): string =>
  identityPage(`Allow ${view.clientName}?`, [
    `<h1>Allow <span class="address">${escapeHtml(view.clientName)}</span> to act for you?</h1>`,
    `<p>You are signed in as <strong class="address">${escapeHtml(view.personEmail)}</strong>. An application that calls itself <strong class="address">${escapeHtml(view.clientName)}</strong> asks to:</p>`,
    '<ul>',
    ...view.requests.map((request) => `<li class="address">${escapeHtml(request)}</li>`),
    '</ul>',
    `<p>Your answer goes back to <strong class="address">${escapeHtml(view.returnsTo)}</strong>. Allow it only if you started this from an application you trust.</p>`,
    `<form method="post" action="${escapeHtml(view.action)}">`,
    '<div class="actions">',
    '<button type="submit" name="decision" value="allow">Allow</button>',
    '<button type="submit" name="decision" value="deny" class="secondary">Deny</button>',
    '</div>',
    '</form>',
  ]);
