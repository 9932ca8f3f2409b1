// identity provider pages -> the sign-up page (decisions.md §10): `Email`, `Password` (at least 12 characters,
// said beside it) and the `Create account` button. A refusal is shown under the field it is about, with
// the focus on that field; the email typed is kept, the password never is.
import { escapeHtml } from '../../pages/html';
import { identityPage } from './document';
import { field } from './form-fields';

export interface SignUpView {
  action: string;
  signInHref: string;
  clientName: string;
  email?: string;
  error?: { field: 'email' | 'password'; message: string };
  /** The shortest password allowed, for the hint. */
  minPasswordCharacters: number;
}

export const renderSignUp = (view: SignUpView): string => {
  const errorOf = (name: 'email' | 'password') =>
    view.error?.field === name ? { error: view.error.message } : {};
  return identityPage('Create account', [
    '<h1>Create account</h1>',
    `<p>to continue to <strong class="address">${escapeHtml(view.clientName)}</strong>.</p>`,
    `<form method="post" action="${escapeHtml(view.action)}">`,
    field({
      name: 'email',
      label: 'Email',
      type: 'email',
      autocomplete: 'username',
      ...(view.email && { value: view.email }),
      ...errorOf('email'),
      autofocus: view.error?.field !== 'password',
    }),
    field({
      name: 'password',
      label: 'Password',
      type: 'password',
      autocomplete: 'new-password',
      hint: `At least ${view.minPasswordCharacters} characters.`,
      ...errorOf('password'),
      autofocus: view.error?.field === 'password',
    }),
    '<div class="actions"><button type="submit">Create account</button></div>',
    '</form>',
    `<p>Have an account? <a href="${escapeHtml(view.signInHref)}">Sign in</a></p>`,
  ]);
};
