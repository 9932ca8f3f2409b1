// frontend/onboarding/frame -> the form itself: which step is shown, going on (each step checked first,
// focus on the first problem), going back, the review, sending, and the screen after sending. The draft
// is the one source of what was typed; every change schedules a draft save (saver.ts).
import { type Draft, draftAnswers, readDraft, submittedAnswers } from './answers';
import { AnswersInvalidError, type FormState, type FrameApi, SessionInvalidError } from './api';
import { h } from './dom';
import type { FieldView } from './fields';
import type { ParentLink } from './parent';
import { reviewContent } from './review';
import { draftSaver, type SaveStatus } from './saver';
import { formSteps, REVIEW, type Step } from './steps';
import { checkDraft, type Problem, under } from './validate';

export interface AppOptions {
  root: HTMLElement;
  api: FrameApi;
  link: ParentLink;
  form: FormState;
  now(): Date;
  onSessionInvalid(): void;
}

const DONE = 'done';

const SAVE_TEXT: Record<SaveStatus | 'idle', string> = {
  idle: 'Your answers are saved as you go.',
  saving: 'Saving…',
  saved: 'Your answers are saved.',
  failed: 'Your latest answers are not saved yet. Check your connection.',
  not_kept: 'This browser does not keep unsent answers: finish and submit the form before you leave.',
};

const sentOn = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeStyle: 'short' }).format(date);
};

export const startApp = (o: AppOptions): void => {
  const draft: Draft = readDraft(o.form.answers);
  let submittedAt = o.form.submitted_at;
  let fields: FieldView[] = [];
  /** The messages shown now, by field path; and those no field of the step can show. */
  const shown = new Map<string, string>();
  /** Each shown message's field's answer when the message was shown (JSON). */
  const shownFor = new Map<string, string>();
  const answerAt = (path: string): string =>
    JSON.stringify(
      path
        .split('.')
        .reduce<unknown>(
          (at, key) => (at as Record<string, unknown> | undefined)?.[key],
          draftAnswers(draft),
        ) ?? null,
    );
  let general: string[] = [];
  let returnToReview = false;
  let sending = false;
  let saveStatus: SaveStatus | 'idle' = 'idle';
  let statusElement: HTMLElement | null = null;
  let summary: HTMLElement | null = null;

  const saver = draftSaver(
    (body, keepalive) => o.api.saveDraft(body, keepalive),
    () => draftAnswers(draft),
    (status) => {
      saveStatus = status;
      if (statusElement) statusElement.textContent = SAVE_TEXT[status];
    },
  );

  const steps = (): Step[] => formSteps(draft);
  const stepIds = (): string[] => [...steps().map((s) => s.id), REVIEW];
  const stepOf = (id: string): Step | undefined => steps().find((s) => s.id === id);
  /** The first step with something to fix, or the review when nothing is. */
  const firstIncomplete = (): string => {
    const problems = checkDraft(draft, o.now());
    return steps().find((s) => problems.some((p) => s.owns(p.path)))?.id ?? REVIEW;
  };

  let stepId = submittedAt ? DONE : draft.buyers.length === 0 ? 'buyers' : firstIncomplete();

  const fieldFor = (path: string): FieldView | undefined =>
    fields.find((f) => f.path === path) ??
    fields.find((f) => under(f.path, path)) ??
    fields.find((f) => under(path, f.path));

  /** The summary's items by field path (or message, for those no field shows), kept across updates. */
  let summaryItems = new Map<string, { item: HTMLLIElement; text: HTMLElement }>();

  /**
   * Brings the summary up to date in place: an item whose message is unchanged stays the same element,
   * so a link being clicked is not swapped out from under the pointer when focus leaves a field.
   */
  const renderSummary = () => {
    if (!summary) return;
    const wanted = [
      ...fields.flatMap((f) => {
        const message = shown.get(f.path);
        return message === undefined ? [] : [{ key: `field:${f.path}`, message, field: f }];
      }),
      ...general.map((message) => ({ key: `general:${message}`, message, field: undefined })),
    ];
    const next = new Map<string, { item: HTMLLIElement; text: HTMLElement }>();
    for (const { key, message, field } of wanted) {
      let entry = summaryItems.get(key);
      if (!entry) {
        const text = field ? h('a', { href: `#${field.anchor}` }) : h('span');
        if (field)
          text.addEventListener('click', (event) => {
            event.preventDefault();
            field.focusTarget().focus();
          });
        entry = { item: h('li', {}, text), text };
      }
      if (entry.text.textContent !== message) entry.text.textContent = message;
      next.set(key, entry);
    }
    const list = summary.querySelector('ul') ?? summary.appendChild(h('ul'));
    const items = [...next.values()].map((entry) => entry.item);
    if (items.length !== list.children.length || items.some((item, i) => list.children[i] !== item))
      list.replaceChildren(...items);
    summaryItems = next;
    const title = summary.querySelector('h2');
    if (title)
      title.textContent = items.length === 1 ? 'There is a problem' : `There are ${items.length} problems`;
    summary.hidden = items.length === 0;
  };

  /** Shows `problems` on the fields that ask for them; `focus` moves to the first. */
  const showProblems = (problems: Problem[], focus: boolean) => {
    shown.clear();
    general = [];
    for (const problem of problems) {
      const field = fieldFor(problem.path);
      if (!field) general.push(problem.message);
      else if (!shown.has(field.path)) shown.set(field.path, problem.message);
    }
    for (const f of fields) f.setError(shown.get(f.path) ?? null);
    shownFor.clear();
    for (const path of shown.keys()) shownFor.set(path, answerAt(path));
    renderSummary();
    if (!focus) return;
    const first = fields.find((f) => shown.has(f.path));
    if (first) first.focusTarget().focus();
    else summary?.focus();
  };

  /**
   * After a change: a field with a message whose answer changed since is judged again; its message goes
   * when it is fixed, and with `update` (focus left it) says what is wrong now. A field not changed keeps
   * its message, the service's too, which the form's own rules may not know.
   */
  const refresh = (update: boolean) => {
    const step = stepOf(stepId);
    if (!step || shown.size === 0) return;
    const problems = checkDraft(draft, o.now()).filter((p) => step.owns(p.path));
    for (const f of fields) {
      if (!shown.has(f.path) || shownFor.get(f.path) === answerAt(f.path)) continue;
      const now = problems.find((p) => fieldFor(p.path) === f);
      if (!now) {
        shown.delete(f.path);
        f.setError(null);
      } else if (update && now.message !== shown.get(f.path)) {
        shown.set(f.path, now.message);
        shownFor.set(f.path, answerAt(f.path));
        f.setError(now.message);
      }
    }
    renderSummary();
  };

  const changed = () => {
    saver.changed();
    refresh(false);
  };

  const go = (id: string) => {
    stepId = id;
    shown.clear();
    general = [];
    render(true);
    void saver.flush();
  };

  /** Goes to the first step `problems` belong to and shows them there; going on returns to the review. */
  const goToProblems = (problems: Problem[]) => {
    const step = steps().find((s) => problems.some((p) => s.owns(p.path)));
    returnToReview = step !== undefined;
    go(step?.id ?? REVIEW);
    showProblems(step ? problems.filter((p) => step.owns(p.path)) : problems, true);
  };

  const next = () => {
    const step = stepOf(stepId);
    if (!step) return;
    const problems = checkDraft(draft, o.now()).filter((p) => step.owns(p.path));
    if (problems.length > 0) return showProblems(problems, true);
    if (returnToReview) return go(firstIncomplete());
    const ids = stepIds();
    go(ids[ids.indexOf(stepId) + 1] ?? REVIEW);
  };

  const back = () => {
    if (returnToReview) return go(REVIEW);
    const ids = stepIds();
    go(ids[Math.max(0, ids.indexOf(stepId) - 1)] ?? 'buyers');
  };

  const send = async (button: HTMLButtonElement) => {
    if (sending) return;
    const problems = checkDraft(draft, o.now());
    if (problems.length > 0) return goToProblems(problems);
    sending = true;
    button.setAttribute('aria-disabled', 'true');
    button.textContent = 'Sending…';
    // The saved draft and the submission agree, whatever the service keeps for the next visit.
    await saver.flush();
    try {
      const result = await o.api.submit(submittedAnswers(draft));
      submittedAt = result.submitted_at;
      returnToReview = false;
      sending = false;
      go(DONE);
      o.link.post({ type: 'submitted' });
    } catch (error) {
      sending = false;
      if (error instanceof SessionInvalidError) return o.onSessionInvalid();
      if (error instanceof AnswersInvalidError && error.fields.length > 0) return goToProblems(error.fields);
      render(false);
      showProblems(
        [
          {
            path: '',
            message: 'Your details could not be sent just now. Check your connection and try again.',
          },
        ],
        true,
      );
    }
  };

  const renderDone = (): HTMLElement => {
    const change = h('button', { type: 'button', class: 'button button-secondary' }, 'Change my details');
    change.addEventListener('click', () => {
      returnToReview = false;
      go(REVIEW);
    });
    return h(
      'div',
      { class: 'card done' },
      h('div', { class: 'done-mark', 'aria-hidden': 'true' }),
      h('h1', { id: 'step-title', tabindex: '-1' }, 'Thank you, your details have been sent'),
      submittedAt ? h('p', { class: 'lead' }, `Sent on ${sentOn(submittedAt)}.`) : null,
      h(
        'p',
        {},
        'The business that asked you to fill in this form has them now. ' +
          'If something is wrong or changes, you can correct your details and send them again.',
      ),
      change,
    );
  };

  const renderStep = (): HTMLElement => {
    const ids = stepIds();
    const index = Math.max(0, ids.indexOf(stepId));
    const step = stepOf(stepId);
    const built = step ? step.build({ draft, changed }) : null;
    fields = built?.fields ?? [];
    const title = step?.title ?? 'Check your answers';

    const form = h('form', { class: 'step', novalidate: true, 'aria-labelledby': 'step-title' });
    if (index > 0 || returnToReview) {
      const backButton = h('button', { type: 'button', class: 'link back' }, 'Back');
      backButton.addEventListener('click', back);
      form.append(backButton);
    }
    form.append(
      h(
        'h1',
        { id: 'step-title', tabindex: '-1' },
        h('span', { class: 'caption' }, `Step ${index + 1} of ${ids.length}`),
        ' ',
        title,
      ),
    );
    summary = h(
      'div',
      { class: 'summary', tabindex: '-1', role: 'group', 'aria-labelledby': 'summary-title' },
      h('h2', { id: 'summary-title' }),
      h('ul'),
    );
    summaryItems = new Map();
    renderSummary();
    let submit: HTMLButtonElement;
    if (step && built) {
      form.append(summary, ...built.content.filter((c): c is HTMLElement => c !== null));
      submit = h('button', { type: 'submit', class: 'button' }, 'Continue');
    } else {
      if (submittedAt)
        form.append(
          h(
            'p',
            { class: 'notice' },
            `You sent your details on ${sentOn(submittedAt)}. Changes are only sent when you press Send again.`,
          ),
        );
      form.append(
        summary,
        h('p', { class: 'lead' }, 'Check every buyer’s details before you send them.'),
        ...reviewContent(draft, steps(), (target) => {
          returnToReview = true;
          go(target.id);
        }),
      );
      submit = h(
        'button',
        { type: 'submit', class: 'button' },
        submittedAt ? 'Send again' : 'Send my details',
      );
    }
    statusElement = h('p', { class: 'save-status' }, SAVE_TEXT[saveStatus]);
    form.append(h('div', { class: 'actions' }, submit), statusElement);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (stepId === REVIEW) void send(submit);
      else next();
    });
    // Leaving a field brings its message up to date with what is there now.
    form.addEventListener('focusout', () => refresh(true));

    const progress = h(
      'ol',
      { class: 'progress', 'aria-hidden': 'true' },
      ...ids.map((_, i) => h('li', { class: i < index ? 'is-done' : i === index ? 'is-current' : '' })),
    );
    return h('div', { class: 'card' }, progress, form);
  };

  const render = (focus: boolean) => {
    const view = stepId === DONE ? renderDone() : renderStep();
    if (stepId === DONE) {
      fields = [];
      summary = null;
      statusElement = null;
    }
    o.root.replaceChildren(view);
    if (focus) document.getElementById('step-title')?.focus();
  };

  render(false);
};
