// identity provider -> the pages of a sign-in in progress (an oidc-provider interaction), under
// `/interaction/{uid}` where its cookie is sent: the sign-in page, the sign-up page (which creates the
// person and signs them in), and the consent page of a client that is not the service's own. Each
// step ends by handing its result to oidc-provider, which carries on with the authorization. With an
// upstream sign-in (deployed: Cognito) there are no password pages: the sign-in step sends the person
// there, and its answer (`/interaction/upstream-callback`) signs in the person of that verified email.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { errors, type Interaction } from 'oidc-provider';
import { log } from '../core/log';
import { ENVIRONMENTS } from '../core/model';
import { type PeopleServices, signIn, signInUpstream, signUp } from '../core/people/accounts';
import { MIN_PASSWORD_CHARACTERS, SignInRefused, SignUpRefused } from '../core/people/credentials';
import { UPSTREAM_CALLBACK_PATH } from '../core/settings';
import { recordConsent } from './consent';
import { clientAddress, FormRefused, isSameOriginPost, readForm } from './form-requests';
import { PageAnswers } from './page-answers';
import { renderConsent } from './pages/consent';
import { renderNotice } from './pages/notices';
import { renderSignIn } from './pages/sign-in';
import { renderSignUp } from './pages/sign-up';
import { describeRequest, type McpResource, requestedEnvironments } from './resources';
import { UpstreamRefused, type UpstreamSettings, UpstreamSignIn } from './upstream';

const ROUTE = /^\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(sign-in|sign-up|consent))?$/;

type Action = 'show' | 'sign-in' | 'sign-up' | 'consent';

/** Which methods each address answers. */
const METHODS: Record<Action, readonly string[]> = {
  show: ['GET', 'HEAD'],
  'sign-in': ['POST'],
  'sign-up': ['GET', 'HEAD', 'POST'],
  consent: ['POST'],
};

export interface InteractionSettings {
  /** This provider's origin, the only one its forms are accepted from. */
  origin: string;
  mcpResources: readonly McpResource[];
  /** Requests arrive through one proxy, which names the client's address (`clientAddress`). */
  behindProxy: boolean;
  /** Where people sign in instead of the password pages, if anywhere. */
  upstream?: UpstreamSettings;
}

const EXPIRED = renderNotice(
  'This sign-in has expired',
  'It was started too long ago, or in another window. Go back to the application and start again.',
);

const field = (form: URLSearchParams, name: string): string => form.get(name) ?? '';

const stringParam = (interaction: Interaction, name: string): string | undefined => {
  const value = interaction.params[name];
  return typeof value === 'string' ? value : undefined;
};

const listParam = (interaction: Interaction, name: string): string[] => {
  const value = interaction.params[name];
  return (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
};

/** Where the answer goes, as a person reads it: the host of the redirect address, or an app's scheme. */
const returnsTo = (redirectUri: string | undefined): string => {
  const url = redirectUri === undefined ? null : URL.parse(redirectUri);
  if (!url) return 'the application';
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol;
};

const pathOf = (interaction: Interaction, action?: Exclude<Action, 'show'>): string =>
  `/interaction/${interaction.uid}${action ? `/${action}` : ''}`;

export const interactionPages = (
  provider: Provider,
  people: PeopleServices,
  settings: InteractionSettings,
) => {
  const upstream = settings.upstream && new UpstreamSignIn(settings.upstream, settings.origin);

  /** The upstream's answer: the interaction its state names finishes with the person of its email. */
  const finishUpstream = async (upstreamSignIn: UpstreamSignIn, at: PageAnswers) => {
    const clear = upstreamSignIn.clearCookie();
    let answer: Awaited<ReturnType<UpstreamSignIn['finish']>>;
    try {
      answer = await upstreamSignIn.finish(
        new URL(at.request.url ?? '/', settings.origin),
        at.request.headers.cookie,
      );
    } catch (error) {
      if (!(error instanceof UpstreamRefused)) throw error;
      log.warn('upstream sign-in refused', { reason: error.message });
      return at.page(400, EXPIRED, { 'Set-Cookie': clear });
    }
    // Found by the uid its state carries (the interaction's cookie is scoped to its own pages); the
    // resumption still needs the resume cookie of the browser that started it.
    const interaction = await provider.Interaction.find(answer.uid);
    if (interaction?.prompt.name !== 'login') return at.page(400, EXPIRED, { 'Set-Cookie': clear });
    const person = await signInUpstream(people, answer.person.email);
    log.info('person signed in upstream', { person_id: person.id });
    interaction.result = { login: { accountId: person.id, amr: ['fed'] } };
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    at.seeOther(interaction.returnTo, [clear]);
  };

  const clientNameOf = async (interaction: Interaction): Promise<string> => {
    const clientId = stringParam(interaction, 'client_id') ?? '';
    return (await provider.Client.find(clientId))?.clientName ?? clientId;
  };

  const showSignIn = async (
    at: PageAnswers,
    interaction: Interaction,
    failed?: { status: number; email: string; refusal: SignInRefused },
  ) => {
    const html = renderSignIn({
      action: pathOf(interaction, 'sign-in'),
      signUpHref: pathOf(interaction, 'sign-up'),
      clientName: await clientNameOf(interaction),
      ...(failed && { email: failed.email, error: failed.refusal.message }),
    });
    const retryAfter = failed?.refusal.retryAfterSeconds;
    at.page(
      failed?.status ?? 200,
      html,
      retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
    );
  };

  const showSignUp = async (
    at: PageAnswers,
    interaction: Interaction,
    failed?: { email: string; refusal: SignUpRefused },
  ) => {
    const html = renderSignUp({
      action: pathOf(interaction, 'sign-up'),
      signInHref: pathOf(interaction),
      clientName: await clientNameOf(interaction),
      minPasswordCharacters: MIN_PASSWORD_CHARACTERS,
      ...(failed && {
        email: failed.email,
        error: { field: failed.refusal.field, message: failed.refusal.message },
      }),
    });
    const retryAfter = failed?.refusal.retryAfterSeconds;
    const status = failed?.refusal.busy ? 503 : retryAfter === undefined ? 400 : 429;
    at.page(
      failed ? status : 200,
      html,
      retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
    );
  };

  const showConsent = async (at: PageAnswers, interaction: Interaction) => {
    const accountId = interaction.session?.accountId;
    const person = accountId === undefined ? null : await people.people.get(accountId);
    if (!person) return at.page(400, EXPIRED);
    const scopes = (stringParam(interaction, 'scope') ?? '').split(' ').filter(Boolean);
    const indicators = listParam(interaction, 'resource');
    const asked = requestedEnvironments(settings.mcpResources, indicators);
    at.page(
      200,
      renderConsent({
        action: pathOf(interaction, 'consent'),
        clientName: await clientNameOf(interaction),
        returnsTo: returnsTo(stringParam(interaction, 'redirect_uri')),
        personEmail: person.email,
        requests: describeRequest(settings.mcpResources, scopes, indicators),
        environments:
          asked.length === 0
            ? []
            : ENVIRONMENTS.map((environment) => ({ environment, checked: asked.includes(environment) })),
      }),
    );
  };

  /** Signs the person in for this interaction; oidc-provider carries on (to consent, or to the client). */
  const finishLogin = (at: PageAnswers, personId: string) => {
    at.beforeRedirect();
    return provider.interactionFinished(
      at.request,
      at.response,
      { login: { accountId: personId, amr: ['pwd'] } },
      { mergeWithLastSubmission: false },
    );
  };

  const submitSignIn = async (at: PageAnswers, interaction: Interaction, form: URLSearchParams) => {
    const email = field(form, 'email');
    try {
      const from = clientAddress(at.request, settings.behindProxy);
      const person = await signIn(people, { email, password: field(form, 'password') }, from);
      log.info('person signed in', { person_id: person.id });
      await finishLogin(at, person.id);
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      const status = error.busy ? 503 : error.retryAfterSeconds === undefined ? 401 : 429;
      await showSignIn(at, interaction, { status, email, refusal: error });
    }
  };

  const submitSignUp = async (at: PageAnswers, interaction: Interaction, form: URLSearchParams) => {
    const email = field(form, 'email');
    try {
      const from = clientAddress(at.request, settings.behindProxy);
      const person = await signUp(people, { email, password: field(form, 'password') }, from);
      log.info('person signed up', { person_id: person.id });
      await finishLogin(at, person.id);
    } catch (error) {
      if (!(error instanceof SignUpRefused)) throw error;
      await showSignUp(at, interaction, { email, refusal: error });
    }
  };

  const submitConsent = async (at: PageAnswers, interaction: Interaction, form: URLSearchParams) => {
    const decision = field(form, 'decision');
    if (decision !== 'allow' && decision !== 'deny')
      return at.page(400, renderNotice('Choose Allow or Deny', 'Go back and choose one.'));
    if (decision === 'deny') {
      const denied = { error: 'access_denied', error_description: 'The person did not allow access.' };
      at.beforeRedirect();
      return provider.interactionFinished(at.request, at.response, denied, {
        mergeWithLastSubmission: false,
      });
    }
    const ticked = form.getAll('environment');
    const environments = ENVIRONMENTS.filter((environment) => ticked.includes(environment));
    const grantId = await recordConsent(provider, interaction, environments);
    if (grantId === null) return at.page(400, EXPIRED);
    const clientId = interaction.params.client_id;
    log.info('person allowed a client', {
      person_id: interaction.session?.accountId,
      client_id: clientId,
      environments,
    });
    at.beforeRedirect();
    // Merged with the login result of the same authorization, which oidc-provider still reads.
    await provider.interactionFinished(
      at.request,
      at.response,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };

  /** The interaction this request belongs to (by its cookie), or null when there is none or it is another. */
  const interactionOf = async (request: IncomingMessage, response: ServerResponse, uid: string) => {
    try {
      const interaction = await provider.interactionDetails(request, response);
      return interaction.uid === uid ? interaction : null;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return null;
      throw error;
    }
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, bare: PageAnswers) => {
    const pathname = new URL(request.url ?? '/', settings.origin).pathname;
    if (upstream && pathname === UPSTREAM_CALLBACK_PATH) {
      if (request.method !== 'GET')
        return bare.page(405, renderNotice('Not allowed', 'This page cannot be used that way.'), {
          Allow: 'GET',
        });
      return finishUpstream(upstream, bare);
    }
    const match = ROUTE.exec(pathname);
    const uid = match?.[1];
    const action = (match?.[2] as Action | undefined) ?? 'show';
    if (uid === undefined) return bare.page(404, renderNotice('Page not found', 'There is no page here.'));
    if (!METHODS[action].includes(request.method ?? '')) {
      const notAllowed = renderNotice('Not allowed', 'This page cannot be used that way.');
      return bare.page(405, notAllowed, { Allow: METHODS[action].join(', ') });
    }
    const posted = request.method === 'POST';
    if (posted && !isSameOriginPost(request, settings.origin))
      return bare.page(403, renderNotice('Refused', 'This form can only be sent from its own page.'));
    const interaction = await interactionOf(request, response, uid);
    if (!interaction) return bare.page(400, EXPIRED);
    const at = new PageAnswers(request, response, stringParam(interaction, 'redirect_uri'));
    const prompt = interaction.prompt.name;
    // A page of another step than the one under way (a form sent twice, the back button): show that step.
    const step = action === 'consent' ? 'consent' : action === 'show' ? prompt : 'login';
    if (step !== prompt) return at.seeOther(pathOf(interaction));
    // The upstream is where people sign in (and up): every sign-in page sends them there.
    if (upstream && prompt === 'login') {
      if (posted) return at.page(404, renderNotice('Page not found', 'There is no page here.'));
      const started = await upstream.start(interaction.uid);
      return at.seeOther(started.url, [started.cookie]);
    }
    if (!posted) {
      if (prompt === 'consent') return showConsent(at, interaction);
      if (prompt === 'login')
        return action === 'sign-up' ? showSignUp(at, interaction) : showSignIn(at, interaction);
      return at.page(
        400,
        renderNotice('Sign-in could not continue', 'Go back to the application and start again.'),
      );
    }
    const form = await readForm(request);
    if (action === 'sign-in') return submitSignIn(at, interaction, form);
    if (action === 'sign-up') return submitSignUp(at, interaction, form);
    return submitConsent(at, interaction, form);
  };

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const bare = new PageAnswers(request, response);
    try {
      await serve(request, response, bare);
    } catch (error) {
      if (response.headersSent) {
        log.error('identity provider page failed after answering', { error });
        return;
      }
      if (error instanceof FormRefused) {
        const refused = renderNotice('Refused', 'What was sent is not a form of these pages.');
        return bare.page(error.status, refused, { Connection: 'close' });
      }
      log.error('identity provider page failed', { error });
      bare.page(500, renderNotice('Something went wrong', 'Please try again in a minute.'));
    }
  };
};
