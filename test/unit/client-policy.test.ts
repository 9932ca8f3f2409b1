// unit -> the identity provider's rule on client names (lambdas/identity-provider/client-policy.ts): no
// client but the service's own may be named like one of them, whatever its case, spacing, punctuation or
// look-alike letters; other names, however close in meaning, pass.
import { describe, expect, test } from '@jest/globals';
import { imitatesOwnClient, OWN_CLIENT_NAMES } from '../../lambdas/identity-provider/client-policy';

describe('imitatesOwnClient', () => {
  test.each([
    ['Developer portal'],
    ['developer portal'],
    ['DEVELOPER\tPORTAL'],
    ['Developer_Portal'],
    ['The developer portal (official)'],
    ['D\u0435v\u0435loper portal'], // Cyrillic е
    ['Deve1oper p0rtal'], // digits for l and o
    ['DeveIoper portaI'], // capital i for l
    ['Ｄｅｖｅｌｏｐｅｒ ｐｏｒｔａｌ'], // full-width
    ['Back office'],
    ['back\u00a0OFFICE'],
    ['Back-0ffice'],
    ['Back\u200boffice'], // a zero-width space
  ])("%j imitates one of the service's own clients", (name) => {
    expect(imitatesOwnClient(name, OWN_CLIENT_NAMES)).toBe(true);
  });

  test.each([
    ['Claude Code'],
    ['Cursor'],
    ['Developer tools'],
    ['Portal helper'],
    ['Backup officer'],
    ['Office bot'],
  ])('%j does not', (name) => {
    expect(imitatesOwnClient(name, OWN_CLIENT_NAMES)).toBe(false);
  });
});
