// api -> the back office on the local stack (PORT_BASE+8, decisions.md §9 and §11): its built pages, its
// API refusing a caller with no session, and its sign-in leading to the identity provider as the client
// `back_office`, which the provider knows (it answers with its sign-in, not an unknown-client error).
import { type RunningStack, useLocalStack } from '../support/local-stack';

let stack: RunningStack;
useLocalStack((started) => {
  stack = started;
});

const backOffice = () => `http://127.0.0.1:${stack.portBase + 8}`;

test('serves its pages and an API that asks for a session', async () => {
  const page = await fetch(`${backOffice()}/production/reviews`);
  expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(await page.text()).toContain('Back office');

  const session = await fetch(`${backOffice()}/api/session`);
  expect(await session.json()).toEqual({
    signed_in: false,
    email: null,
    roles: [],
    actions: [],
    csrf_token: null,
  });
  const reviews = await fetch(`${backOffice()}/api/production/reviews`);
  expect(reviews.status).toBe(401);
  expect(await reviews.json()).toEqual({
    error: expect.objectContaining({ code: 'authentication_required' }),
  });
});

test('signs in at the identity provider as its own client, with a cookie of its own', async () => {
  const start = await fetch(`${backOffice()}/auth/sign-in?return_to=/production/reviews`, {
    redirect: 'manual',
  });
  expect(start.status).toBe(303);
  expect(start.headers.get('set-cookie')).toMatch(/^back_office_sign_in=[^;]+; Path=\/; .*HttpOnly/);
  const authorize = new URL(start.headers.get('location') ?? '');
  expect(authorize.origin).toBe(`http://127.0.0.1:${stack.portBase + 7}`);
  expect(authorize.searchParams.get('client_id')).toBe('back_office');
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${backOffice()}/auth/callback`);
  // A client the provider knows is sent on to its sign-in; an unknown one would get an error page.
  const answer = await fetch(authorize, { redirect: 'manual' });
  expect([303, 302]).toContain(answer.status);
  expect(answer.headers.get('location')).toMatch(/interaction/);
});
