// identity provider pages -> the sign-in page (decisions.md §10): `Email`, `Password`, the `Sign in` button, and
// a `Create account` link to the sign-up page. A failed sign-in says so above the form, tied to both
// fields, keeps the email typed and puts the focus on the password.
import { escapeHtml } from '../../pages/html';
import { identityPage } from './document';
import { field } from './form-fields';

export interface SignInView {
  /** Where the form posts. */
  action: string;
  signUpHref: string;
  /** The application the person signs in to, as it names itself. */
  clientName: string;
  email?: string;
  /** Why the last attempt failed. */
  error?: string;
}

const ERROR_ID = 'sign-in-error';

export const renderSignIn = (view: SignInView): string =>
  identityPage('Sign in', [
    '<h1>Sign in</h1>',
    `<p>to continue to <strong class="address">${escapeHtml(view.clientName)}</strong>.</p>`,
    ...(view.error ? [`<p class="alert" id="${ERROR_ID}" role="alert">${escapeHtml(view.error)}</p>`] : []),
    `<form method="post" action="${escapeHtml(view.action)}">`,
    field({
      name: 'email',
      label: 'Email',
      type: 'email',
      autocomplete: 'username',
      ...(view.email && { value: view.email }),
      ...(view.error && { describedBy: [ERROR_ID] }),
      autofocus: !view.error,
    }),
    field({
      name: 'password',
      label: 'Password',
      type: 'password',
      autocomplete: 'current-password',
      ...(view.error && { describedBy: [ERROR_ID] }),
      autofocus: Boolean(view.error),
    }),
    '<div class="actions"><button type="submit">Sign in</button></div>',
    '</form>',
    `<p>New here? <a href="${escapeHtml(view.signUpHref)}">Create account</a></p>`,
  ]);
