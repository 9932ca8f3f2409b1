// unit -> the back office's sign-out at the staff user pool: Cognito advertises no end_session_endpoint,
// so the sign-out is its domain's own `/logout`, naming the client and returning to the back office (one
// of the client's sign-out addresses, lib/back-office.ts), without asking the pool anything.
import { StaffPoolSignIn } from '../../lambdas/hosts/aws/staff-pool-sign-in';

test('signs out at the pool domain’s /logout, back to the back office', async () => {
  const signIn = new StaffPoolSignIn({
    // Unreachable: the sign-out address is made without discovery.
    issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_unreachable',
    clientId: 'client123',
    clientSecret: 'secret',
    redirectUri: 'https://back-office.example.com/auth/callback',
    postLogoutRedirectUri: 'https://back-office.example.com/',
    signOutPagesUrl: 'https://contract-service-staff-1.auth.eu-west-1.amazoncognito.com',
  });
  const url = new URL(await signIn.endSessionUrl());
  expect(url.origin).toBe('https://contract-service-staff-1.auth.eu-west-1.amazoncognito.com');
  expect(url.pathname).toBe('/logout');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: 'client123',
    logout_uri: 'https://back-office.example.com/',
  });
});
