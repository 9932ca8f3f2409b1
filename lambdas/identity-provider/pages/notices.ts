// identity provider pages -> the identity provider's pages that only tell something: a sign-in that expired or
// cannot go on, an error of the authorization request, and signing out.
import { escapeHtml } from '../../pages/html';
import { identityPage } from './document';

/** A page with a heading and a paragraph or two, all text. */
export const renderNotice = (title: string, ...paragraphs: string[]): string =>
  identityPage(title, [
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
  ]);

/**
 * The question before signing out. `form` is the identity provider's own hidden form (its action and
 * anti-forgery field), which the two buttons submit.
 */
export const renderSignOut = (form: string, formId: string): string =>
  identityPage('Sign out', [
    '<h1>Sign out?</h1>',
    '<p>You will be signed out of every application you signed in to here.</p>',
    form,
    '<div class="actions">',
    `<button type="submit" form="${escapeHtml(formId)}" name="logout" value="yes">Sign out</button>`,
    `<button type="submit" form="${escapeHtml(formId)}" class="secondary">Stay signed in</button>`,
    '</div>',
  ]);
