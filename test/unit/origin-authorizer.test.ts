// unit -> the origin authorizer of the APIs only CloudFront may call (hosts/origin-authorizer.ts): it admits
// a request whose header is one of the secret's accepted values, and nothing else.
import { authorizeOrigin } from '../../lambdas/hosts/origin-authorizer';
import { originVerifier } from '../../lambdas/hosts/origin-verify';

const verifier = () => {
  const verifier = originVerifier({ read: async () => ['current-value', 'pending-value'], now: () => 0 });
  return verifier.start().then(() => verifier);
};

test('admits a request carrying an accepted value of the secret, current or pending', async () => {
  const ready = await verifier();
  for (const value of ['current-value', 'pending-value'])
    expect(
      await authorizeOrigin(ready, 'X-Origin-Verify', { headers: { 'x-origin-verify': value } }),
    ).toEqual({
      isAuthorized: true,
    });
});

test('refuses a request with another value, an empty one, or none', async () => {
  const ready = await verifier();
  for (const headers of [{ 'x-origin-verify': 'current-valuE' }, { 'x-origin-verify': '' }, {}, undefined])
    expect(await authorizeOrigin(ready, 'x-origin-verify', headers ? { headers } : {})).toEqual({
      isAuthorized: false,
    });
});
