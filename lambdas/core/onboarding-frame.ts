// core -> the frame API (frontend/onboarding/README.md): the sign-up form's session token opens and
// submits its one onboarding's form and reads nothing. What a person wrote (a draft, a submission) is
// bound to the browser that wrote it: the frame's binding cookie, which the customer's page never sees,
// keys it (by hash), so the token alone gets an empty form and can change no one's draft. Answers are
// sealed by the answer vault before they are stored, the onboarding's id bound to them.
import { hashSecret } from './auth';
import { fail, ServiceError } from './errors';
import { parseJson } from './json';
import type { Onboarding } from './model';
import { submitOnboarding } from './onboarding';
import { buyersOf, checkAnswers } from './onboarding-answers';
import type { Ports } from './ports';
import { formatTimeOrNull } from './time';

/** `onbs_` and the random part `Ids.secret` makes (32 base62 characters; at least 22 accepted). */
const SESSION_TOKEN = /^onbs_[A-Za-z0-9]{22,128}$/;

/** The largest body `PUT /api/draft` and `POST /api/submit` take, in bytes. */
export const MAX_ANSWERS_BODY = 64 * 1024;

/** The frame's browser binding, as `Ids.secret` makes it. */
const BINDING = /^onbb_[A-Za-z0-9]{32}$/;

/**
 * The browser a request came from, by the binding it sent (`null`: none, or not one we make) and, when it
 * sent none, the binding to give it now (`minted`, set as the cookie with the answer).
 */
export interface Browser {
  binding: string | null;
  minted: string | null;
}

/** The browser of a request that sent `cookie` (the binding cookie's value, if any). */
export const browserOf = (ports: Pick<Ports, 'ids'>, cookie: string | undefined): Browser =>
  cookie !== undefined && BINDING.test(cookie)
    ? { binding: cookie, minted: null }
    : { binding: null, minted: ports.ids.secret('onbb_') };

/** A binding's key in storage: its hash, so a read of the table yields no cookie. */
const bindingKey = (binding: string): string => hashSecret(`onboarding-binding:${binding}`);

/** Drafts and submissions each (decisions made here, not in the interface): per session token and per browser. */
export const FRAME_WRITE_LIMITS = {
  draft: { ratePerSecond: 1, burst: 30 },
  submit: { ratePerSecond: 1 / 60, burst: 10 },
} as const;

/** The rate buckets a write of `kind` takes from: the session token's, and the browser's when it has one. */
export const frameWriteBuckets = (kind: 'draft' | 'submit', token: string, browser: Browser): string[] => [
  `frame-${kind}#token#${hashSecret(token)}`,
  ...(browser.binding === null ? [] : [`frame-${kind}#browser#${bindingKey(browser.binding)}`]),
];

const OPEN_SESSION =
  'open a session with POST /v1/clients/onboardings/sessions and mount the form with its session_token';

const sessionInvalid = (message: string, tokenSent: boolean): ServiceError =>
  new ServiceError('session_invalid', message, {
    headers: {
      'WWW-Authenticate': tokenSent
        ? 'Bearer realm="onboarding", error="invalid_token"'
        : 'Bearer realm="onboarding"',
    },
  });

/** The session token of `Authorization: Bearer onbs_…`; anything else is `session_invalid`. */
export const sessionTokenOf = (authorization: string | undefined): string => {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) throw sessionInvalid(`Send \`Authorization: Bearer onbs_…\`: ${OPEN_SESSION}.`, false);
  return match[1];
};

/** The onboarding a session token was issued for; a malformed or unknown token is `session_invalid`. */
export const onboardingOfToken = async (
  ports: Pick<Ports, 'onboardings'>,
  token: string,
): Promise<Onboarding> => {
  const refused = () => sessionInvalid(`The session token is unknown or malformed; ${OPEN_SESSION}.`, true);
  if (!SESSION_TOKEN.test(token)) throw refused();
  const onboarding = await ports.onboardings.findBySessionTokenHash(hashSecret(token));
  if (onboarding === null) throw refused();
  return onboarding;
};

const tooLarge = (bytes: number): ServiceError =>
  new ServiceError(
    'answers_too_large',
    `The body may be up to ${MAX_ANSWERS_BODY} bytes (64 KiB) of JSON; this one is ${bytes}. Send shorter answers.`,
  );

/** Refuses a body declared larger than the frame API takes, before it is read. */
export const checkAnswersBodySize = (declaredBytes: number | undefined): void => {
  if (declaredBytes !== undefined && declaredBytes > MAX_ANSWERS_BODY) throw tooLarge(declaredBytes);
};

const BODY_SHAPE = 'The body must be a JSON object: { "answers": { … } }.';

/** The `answers` of a `{ answers }` body, not yet judged. */
const readAnswersBody = (body: string): unknown => {
  const bytes = new TextEncoder().encode(body).length;
  if (bytes > MAX_ANSWERS_BODY) throw tooLarge(bytes);
  const parsed = parseJson(body);
  if (!parsed.ok)
    return fail('request_invalid', `${BODY_SHAPE} This body cannot be read: ${parsed.problem}.`);
  const json = parsed.value;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return fail('request_invalid', BODY_SHAPE);
  const extra = Object.keys(json).find((field) => field !== 'answers');
  if (extra !== undefined)
    fail('request_invalid', `The field \`${extra}\` is not known; send only \`answers\`.`);
  if (!('answers' in json)) fail('request_invalid', `${BODY_SHAPE} \`answers\` is missing.`);
  return (json as { answers: unknown }).answers;
};

/**
 * `GET /api/form`: this browser's draft if it keeps one, else the latest submission's answers if this
 * browser sent it, else null (a new browser, or a token used without the frame, gets an empty form).
 */
export const showForm = async (
  ports: Pick<Ports, 'answerVault' | 'onboardings'>,
  onboarding: Onboarding,
  browser: Browser,
) => {
  let answers: unknown = null;
  if (browser.binding !== null) {
    const key = bindingKey(browser.binding);
    const stored = await ports.onboardings.getAnswers(onboarding.id, key);
    const sealed = stored.draft ?? (stored.submittedBy === key ? stored.submitted : null);
    if (sealed !== null) answers = JSON.parse(await ports.answerVault.open(sealed, onboarding.id));
  }
  return { state: onboarding.state, submitted_at: formatTimeOrNull(onboarding.submittedAt), answers };
};

/** `PUT /api/draft`: keeps what this browser typed so far, any partial shape, sealed, for it alone. */
export const saveDraft = async (
  ports: Pick<Ports, 'answerVault' | 'clock' | 'onboardings'>,
  onboarding: Onboarding,
  browser: Browser,
  body: string,
): Promise<void> => {
  const answers = readAnswersBody(body);
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers))
    fail('request_invalid', '`answers` must be a JSON object, the form as filled in so far.');
  if (browser.binding === null)
    fail(
      'draft_not_kept',
      'A draft is kept only for the browser that wrote it, and this request carries no browser binding (the frame’s own cookie, which this browser may block). The form can still be submitted.',
    );
  const sealed = await ports.answerVault.seal(JSON.stringify(answers), onboarding.id);
  await ports.onboardings.saveDraft(onboarding.id, bindingKey(browser.binding), sealed, ports.clock.now());
};

/**
 * `POST /api/submit`: judges the answers, then records the submission (clients, events, the sealed
 * answers bound to this browser, its draft cleared) in one write. Every field to fix is `answers_invalid` with `fields`.
 */
export const submitForm = async (
  ports: Pick<
    Ports,
    'answerVault' | 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings' | 'workflows'
  >,
  onboarding: Onboarding,
  browser: Browser,
  body: string,
) => {
  const checked = checkAnswers(readAnswersBody(body), new Date(Math.floor(ports.clock.now() / 1000)));
  if (!checked.ok) {
    const count = checked.fields.length;
    fail(
      'answers_invalid',
      `${count === 1 ? 'One field needs' : `${count} fields need`} fixing before the form can be submitted; see \`fields\`.`,
      { fields: checked.fields },
    );
  }
  const sealed = await ports.answerVault.seal(JSON.stringify(checked.answers), onboarding.id);
  // Kept for this browser alone (none: for no one), replacing the submission of any other browser.
  const by = browser.binding === null ? null : bindingKey(browser.binding);
  const submitted = await submitOnboarding(ports, onboarding, buyersOf(checked.answers), { sealed, by });
  return { state: submitted.state, submitted_at: formatTimeOrNull(submitted.submittedAt) };
};
