// identity provider -> the pages of a sign-in in progress (an oidc-provider interaction), under
// `/interaction/{uid}` where its cookie is sent: the sign-in page, the sign-up page (which creates the
// person and signs them in), and the consent page of a client that is not the service's own. Each
// step ends by handing the result back to oidc-provider, which carries on with the authorization.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { errors, type Grant, type Interaction } from 'oidc-provider';
import { renderConsent } from '../../frontend/identity/consent';
import { renderNotice } from '../../frontend/identity/notices';
import { renderSignIn } from '../../frontend/identity/sign-in';
import { renderSignUp } from '../../frontend/identity/sign-up';
import { log } from '../core/log';
import { type PeopleServices, signIn, signUp } from '../core/people/accounts';
import { MIN_PASSWORD_CHARACTERS, SignInRefused, SignUpRefused } from '../core/people/credentials';
import { FormRefused, isSameOriginPost, readForm } from './form-requests';
import { BASE_SECURITY_HEADERS, pageHeaders } from './page-security';
import { describeRequest, type McpResource } from './resources';

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
}

/** One request to an interaction's pages, with what every answer of it needs. */
class InteractionRequest {
  constructor(
    readonly request: IncomingMessage,
    readonly response: ServerResponse,
    /** The address the sign-in returns to, which the page's forms must be allowed to reach. */
    private readonly returnTo: string | undefined,
  ) {}

  page(status: number, html: string, headers: Record<string, string> = {}): void {
    const formTargets = this.returnTo === undefined ? [] : [this.returnTo];
    this.response.writeHead(status, {
      ...pageHeaders({ formTargets }),
      'Content-Length': String(Buffer.byteLength(html)),
      ...headers,
    });
    this.response.end(this.request.method === 'HEAD' ? undefined : html);
  }

  seeOther(location: string): void {
    this.response.writeHead(303, {
      ...BASE_SECURITY_HEADERS,
      'Cache-Control': 'no-store',
      Location: location,
    });
    this.response.end();
  }
}

const text = (form: URLSearchParams, name: string): string => form.get(name) ?? '';

const stringParam = (interaction: Interaction, name: string): string | undefined => {
  const value = interaction.params[name];
  return typeof value === 'string' ? value : undefined;
};

const listParam = (interaction: Interaction, name: string): string[] => {
  const value = interaction.params[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string');
};

/** Where the answer goes, as a person reads it: the host of the redirect address, or an app's scheme. */
const returnsTo = (redirectUri: string | undefined): string => {
  const url = redirectUri === undefined ? null : URL.parse(redirectUri);
  if (!url) return 'the application';
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol;
};

export const interactionPages = (
  provider: Provider,
  people: PeopleServices,
  settings: InteractionSettings,
): ((request: IncomingMessage, response: ServerResponse) => Promise<void>) => {
  const clientNameOf = async (interaction: Interaction): Promise<string> => {
    const clientId = stringParam(interaction, 'client_id') ?? '';
    const client = await provider.Client.find(clientId);
    return client?.clientName ?? clientId;
  };

  const base = (uid: string) => `/interaction/${uid}`;

  const showSignIn = async (
    at: InteractionRequest,
    interaction: Interaction,
    status = 200,
    failed?: { email: string; error: string; retryAfterSeconds?: number },
  ) => {
    const html = renderSignIn({
      action: `${base(interaction.uid)}/sign-in`,
      signUpHref: `${base(interaction.uid)}/sign-up`,
      clientName: await clientNameOf(interaction),
      ...(failed && { email: failed.email, error: failed.error }),
    });
    const retry = failed?.retryAfterSeconds;
    at.page(status, html, retry === undefined ? {} : { 'Retry-After': String(retry) });
  };

  const showSignUp = async (
    at: InteractionRequest,
    interaction: Interaction,
    status = 200,
    failed?: { email: string; field: 'email' | 'password'; message: string },
  ) => {
    const html = renderSignUp({
      action: `${base(interaction.uid)}/sign-up`,
      signInHref: base(interaction.uid),
      clientName: await clientNameOf(interaction),
      minPasswordCharacters: MIN_PASSWORD_CHARACTERS,
      ...(failed && { email: failed.email, error: { field: failed.field, message: failed.message } }),
    });
    at.page(status, html);
  };

  const showConsent = async (at: InteractionRequest, interaction: Interaction) => {
    const accountId = interaction.session?.accountId;
    const person = accountId === undefined ? null : await people.people.get(accountId);
    if (!person) return at.page(400, expired());
    const scopes = (stringParam(interaction, 'scope') ?? '').split(' ').filter(Boolean);
    at.page(
      200,
      renderConsent({
        action: `${base(interaction.uid)}/consent`,
        clientName: await clientNameOf(interaction),
        returnsTo: returnsTo(stringParam(interaction, 'redirect_uri')),
        personEmail: person.email,
        requests: describeRequest(settings.mcpResources, scopes, listParam(interaction, 'resource')),
      }),
    );
  };

  /** Signs the person in for this interaction; oidc-provider carries on (to consent, or to the client). */
  const finishLogin = (at: InteractionRequest, personId: string) =>
    provider.interactionFinished(
      at.request,
      at.response,
      { login: { accountId: personId, amr: ['pwd'] } },
      { mergeWithLastSubmission: false },
    );

  const submitSignIn = async (at: InteractionRequest, interaction: Interaction, form: URLSearchParams) => {
    const email = text(form, 'email');
    try {
      const person = await signIn(people, { email, password: text(form, 'password') });
      log.info('person signed in', { person_id: person.id });
      await finishLogin(at, person.id);
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      const status = error.retryAfterSeconds === undefined ? 401 : 429;
      await showSignIn(at, interaction, status, {
        email,
        error: error.message,
        ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
      });
    }
  };

  const submitSignUp = async (at: InteractionRequest, interaction: Interaction, form: URLSearchParams) => {
    const email = text(form, 'email');
    try {
      const person = await signUp(people, { email, password: text(form, 'password') });
      log.info('person signed up', { person_id: person.id });
      await finishLogin(at, person.id);
    } catch (error) {
      if (!(error instanceof SignUpRefused)) throw error;
      await showSignUp(at, interaction, 400, { email, field: error.field, message: error.message });
    }
  };

  /** Records what the person allowed in the grant (what the consent prompt found missing), or denies it. */
  const submitConsent = async (at: InteractionRequest, interaction: Interaction, form: URLSearchParams) => {
    const decision = text(form, 'decision');
    if (decision === 'deny') {
      await provider.interactionFinished(
        at.request,
        at.response,
        { error: 'access_denied', error_description: 'The person did not allow access.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (decision !== 'allow')
      return at.page(400, renderNotice('Choose Allow or Deny', 'Go back and choose.'));
    const accountId = interaction.session?.accountId;
    const clientId = stringParam(interaction, 'client_id');
    if (accountId === undefined || clientId === undefined) return at.page(400, expired());
    const existing: Grant | undefined = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : undefined;
    const grant = existing ?? new provider.Grant({ accountId, clientId });
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    log.info('person allowed a client', { person_id: accountId, client_id: clientId });
    await provider.interactionFinished(
      at.request,
      at.response,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };

  const expired = () =>
    renderNotice(
      'This sign-in has expired',
      'It was started too long ago, or in another window. Go back to the application and start again.',
    );

  return async (request, response) => {
    const match = ROUTE.exec(new URL(request.url ?? '/', settings.origin).pathname);
    const uid = match?.[1];
    const action: Action = (match?.[2] as Action | undefined) ?? 'show';
    const bare = new InteractionRequest(request, response, undefined);
    try {
      if (uid === undefined) return bare.page(404, renderNotice('Page not found', 'There is no page here.'));
      if (!METHODS[action].includes(request.method ?? '')) {
        return bare.page(405, renderNotice('Not allowed', 'This page cannot be used that way.'), {
          Allow: METHODS[action].join(', '),
        });
      }
      const posted = request.method === 'POST';
      if (posted && !isSameOriginPost(request, settings.origin))
        return bare.page(403, renderNotice('Refused', 'This form can only be sent from its own page.'));
      let interaction: Interaction;
      try {
        interaction = await provider.interactionDetails(request, response);
      } catch (error) {
        if (error instanceof errors.SessionNotFound) return bare.page(400, expired());
        throw error;
      }
      if (interaction.uid !== uid) return bare.page(400, expired());
      const at = new InteractionRequest(request, response, stringParam(interaction, 'redirect_uri'));
      const prompt = interaction.prompt.name;
      // A page of another step than the one under way (a form sent twice, a back button): show that step.
      const wanted = action === 'consent' ? 'consent' : action === 'show' ? prompt : 'login';
      if (wanted !== prompt) return at.seeOther(base(uid));
      if (!posted) {
        if (prompt === 'consent') return await showConsent(at, interaction);
        if (action === 'sign-up') return await showSignUp(at, interaction);
        if (prompt === 'login') return await showSignIn(at, interaction);
        return at.page(
          400,
          renderNotice('Sign-in could not continue', 'Go back to the application and start again.'),
        );
      }
      const form = await readForm(request);
      if (action === 'sign-in') return await submitSignIn(at, interaction, form);
      if (action === 'sign-up') return await submitSignUp(at, interaction, form);
      return await submitConsent(at, interaction, form);
    } catch (error) {
      if (response.headersSent) {
        log.error('identity provider page failed after answering', { error });
        return;
      }
      if (error instanceof FormRefused) {
        return bare.page(error.status, renderNotice('Refused', 'The form sent was not one of these pages.'), {
          Connection: 'close',
        });
      }
      log.error('identity provider page failed', { error });
      bare.page(500, renderNotice('Something went wrong', 'Please try again in a minute.'));
    }
  };
};
