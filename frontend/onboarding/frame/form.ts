// frontend/onboarding/frame -> the frame's entry point: say ready to the page that mounted the form,
// wait for its session token, load the draft or latest answers, and start the form. A token the
// service does not know ends here, with the page told (`error`) and the person shown why.
import './zod-jitless';
import { type FormState, frameApi, SessionInvalidError } from './api';
import { startApp } from './app';
import { h } from './dom';
import { connectParent, isFramed, type ParentLink, reportHeight } from './parent';

const TOKEN = /^onbs_[A-Za-z0-9_-]{1,256}$/;

const root = document.getElementById('form') as HTMLElement;

const message = (title: string, text: string, action?: HTMLButtonElement) =>
  root.replaceChildren(
    h(
      'div',
      { class: 'card' },
      h('h1', { id: 'step-title', tabindex: '-1' }, title),
      h('p', {}, text),
      action ?? null,
    ),
  );

const sessionInvalid = (link: ParentLink) => {
  message(
    'This form cannot be opened',
    'The link to this form is not valid. Ask the business that sent it to you for a new one.',
  );
  link.post({ type: 'error', code: 'session_invalid' });
};

const start = async (sessionToken: string, link: ParentLink) => {
  if (!TOKEN.test(sessionToken)) return sessionInvalid(link);
  const api = frameApi(sessionToken);
  let form: FormState;
  try {
    form = await api.form();
  } catch (error) {
    if (error instanceof SessionInvalidError) return sessionInvalid(link);
    const retry = h('button', { type: 'button', class: 'button' }, 'Try again');
    retry.addEventListener('click', () => {
      message('Loading the form…', 'One moment.');
      void start(sessionToken, link);
    });
    return message('The form could not be loaded', 'Check your connection and try again.', retry);
  }
  startApp({ root, api, link, form, now: () => new Date(), onSessionInvalid: () => sessionInvalid(link) });
};

if (isFramed())
  connectParent((sessionToken, link) => {
    reportHeight(link);
    void start(sessionToken, link);
  });
else
  message(
    'This form opens inside another page',
    'Open it from the page of the business that asked you to fill it in.',
  );
