// The SSRF guard of webhook targets, in process: which IP addresses are public, and which endpoint
// addresses may be registered, each with the reason given (decisions.md §6).
import {
  addressRefusal,
  checkEndpointUrl,
  isLoopbackAddress,
  isPublicAddress,
} from '../../lambdas/core/webhooks/target';

describe('isPublicAddress', () => {
  // [address, null when public, else the reason addressRefusal gives]
  const addresses: Array<[string, string | null]> = [
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['93.184.216.34', null],
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:82a::200e', null],
    ['::ffff:8.8.8.8', null],
    ['::ffff:808:808', null],
    // IPv4
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['10.0.0.1', 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)'],
    ['172.16.0.1', 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)'],
    ['172.31.255.255', 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)'],
    ['169.254.169.254', 'the cloud metadata address'],
    ['169.254.169.253', 'a link-local address (169.254.0.0/16)'],
    ['169.254.0.1', 'a link-local address (169.254.0.0/16)'],
    ['100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['100.100.100.200', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['100.128.0.1', null],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address (0.0.0.0/8)'],
    ['0.1.2.3', 'an unspecified address (0.0.0.0/8)'],
    ['255.255.255.255', 'the broadcast address'],
    ['240.0.0.1', 'a reserved or documentation address'],
    ['192.0.2.1', 'a reserved or documentation address'],
    ['198.51.100.7', 'a reserved or documentation address'],
    ['203.0.113.9', 'a reserved or documentation address'],
    ['198.18.0.1', 'a reserved or documentation address'],
    ['192.0.0.8', 'a reserved or documentation address'],
    // IPv6
    ['::1', 'a loopback address'],
    ['::', 'the unspecified address (::)'],
    ['fe80::1', 'a link-local address (fe80::/10)'],
    ['febf::1', 'a link-local address (fe80::/10)'],
    ['fc00::1', 'a unique-local address (fc00::/7)'],
    ['fd12:3456:789a::1', 'a unique-local address (fc00::/7)'],
    ['fd00:ec2::254', 'the cloud metadata address'],
    ['fec0::1', 'a site-local address (fec0::/10)'],
    ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'a reserved or documentation address'],
    ['3fff::1', 'a reserved or documentation address'],
    ['100::1', 'a reserved or documentation address'],
    ['4000::1', 'outside the global unicast range (2000::/3)'],
    // IPv4 inside IPv6
    ['::ffff:127.0.0.1', 'the IPv4-mapped form of a loopback address'],
    ['::ffff:7f00:1', 'the IPv4-mapped form of a loopback address'],
    [
      '::ffff:10.0.0.1',
      'the IPv4-mapped form of a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
    ],
    ['::ffff:169.254.169.254', 'the IPv4-mapped form of the cloud metadata address'],
    ['::127.0.0.1', 'an IPv4-compatible address (deprecated, ::/96)'],
    ['::8.8.8.8', 'an IPv4-compatible address (deprecated, ::/96)'],
    ['::ffff:0:a00:1', 'an IPv4-translated address that embeds an IPv4 address'],
    ['64:ff9b::a00:1', 'a NAT64 address that embeds an IPv4 address'],
    ['64:ff9b::a9fe:a9fe', 'a NAT64 address that embeds an IPv4 address'],
    ['2002:a00:1::1', 'a 6to4 address that embeds an IPv4 address'],
    ['2002:7f00:1::1', 'a 6to4 address that embeds an IPv4 address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo address that embeds an IPv4 address'],
    // Not canonical IP addresses: refused rather than guessed at
    ['127.1', 'not an IP address'],
    ['0x7f000001', 'not an IP address'],
    ['2130706433', 'not an IP address'],
    ['0177.0.0.1', 'not an IP address'],
    ['010.0.0.1', 'not an IP address'],
    ['fe80::1%eth0', 'not an IP address'],
    ['[::1]', 'not an IP address'],
    ['localhost', 'not an IP address'],
    ['', 'not an IP address'],
    ['256.0.0.1', 'not an IP address'],
  ];

  test.each(addresses)('%s → %s', (ip, refusal) => {
    expect(addressRefusal(ip)).toBe(refusal);
    expect(isPublicAddress(ip)).toBe(refusal === null);
  });

  test('loopback addresses, for the local stack', () => {
    for (const ip of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'])
      expect([ip, isLoopbackAddress(ip)]).toEqual([ip, true]);
    for (const ip of ['10.0.0.1', '8.8.8.8', '::', '::127.0.0.1', 'localhost', '127.1'])
      expect([ip, isLoopbackAddress(ip)]).toEqual([ip, false]);
  });
});

describe('checkEndpointUrl', () => {
  const deployed = { allowLoopbackHttp: false };
  const local = { allowLoopbackHttp: true };
  const long = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;

  // [address, policy, the stored href when accepted, or the reason when refused]
  const urls: Array<[string, typeof local, { href: string } | { reason: string }]> = [
    ['https://hooks.example.com/webhooks', deployed, { href: 'https://hooks.example.com/webhooks' }],
    ['https://hooks.example.com', deployed, { href: 'https://hooks.example.com/' }],
    ['https://Hooks.Example.COM:8443/a?b=c', deployed, { href: 'https://hooks.example.com:8443/a?b=c' }],
    ['https://hooks.example.com./in', deployed, { href: 'https://hooks.example.com./in' }],
    ['https://bücher.example/hook', deployed, { href: 'https://xn--bcher-kva.example/hook' }],
    ['https://8.8.8.8/hook', deployed, { href: 'https://8.8.8.8/hook' }],
    ['https://[2606:4700:4700::1111]/hook', deployed, { href: 'https://[2606:4700:4700::1111]/hook' }],
    [long, deployed, { href: long }],
    [`${long}a`, deployed, { reason: 'it is longer than 2048 characters' }],
    ['', deployed, { reason: 'it is empty' }],
    ['/webhooks', deployed, { reason: 'it is not an absolute URL such as https://hooks.example.com/path' }],
    [
      'hooks.example.com',
      deployed,
      { reason: 'it is not an absolute URL such as https://hooks.example.com/path' },
    ],
    ['https://', deployed, { reason: 'it is not an absolute URL such as https://hooks.example.com/path' }],
    [' https://hooks.example.com/', deployed, { reason: 'it contains spaces or control characters' }],
    ['https://hooks.example.com/a\nb', deployed, { reason: 'it contains spaces or control characters' }],
    ['http://hooks.example.com/', deployed, { reason: 'it must use https, not http' }],
    ['ftp://hooks.example.com/', deployed, { reason: 'it must use https, not ftp' }],
    ['file:///etc/passwd', deployed, { reason: 'it must use https, not file' }],
    [
      'https://user:pass@hooks.example.com/',
      deployed,
      { reason: 'it must not contain a user name or password' },
    ],
    ['https://user@hooks.example.com/', deployed, { reason: 'it must not contain a user name or password' }],
    ['https://hooks.example.com/#frag', deployed, { reason: 'it must not contain a fragment (#…)' }],
    ['https://hooks.example.com/#', deployed, { reason: 'it must not contain a fragment (#…)' }],
    [
      'https://10.0.0.1/',
      deployed,
      { reason: 'its host 10.0.0.1 is a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)' },
    ],
    [
      'https://169.254.169.254/latest/meta-data/',
      deployed,
      { reason: 'its host 169.254.169.254 is the cloud metadata address' },
    ],
    [
      'https://[fd00:ec2::254]/',
      deployed,
      { reason: 'its host [fd00:ec2::254] is the cloud metadata address' },
    ],
    ['https://127.0.0.1/', deployed, { reason: 'its host 127.0.0.1 is a loopback address' }],
    ['https://[::1]:8443/', deployed, { reason: 'its host [::1] is a loopback address' }],
    [
      'https://100.64.1.1/',
      deployed,
      { reason: 'its host 100.64.1.1 is a carrier-grade NAT address (100.64.0.0/10)' },
    ],
    ['https://[fc00::5]/', deployed, { reason: 'its host [fc00::5] is a unique-local address (fc00::/7)' }],
    ['https://[fe80::1]/', deployed, { reason: 'its host [fe80::1] is a link-local address (fe80::/10)' }],
    ['https://224.0.0.1/', deployed, { reason: 'its host 224.0.0.1 is a multicast address' }],
    ['https://0.0.0.0/', deployed, { reason: 'its host 0.0.0.0 is an unspecified address (0.0.0.0/8)' }],
    // The URL standard turns other spellings of IPv4 into dotted decimal first.
    ['https://0x7f000001/', deployed, { reason: 'its host 127.0.0.1 is a loopback address' }],
    ['https://2130706433/', deployed, { reason: 'its host 127.0.0.1 is a loopback address' }],
    ['https://0177.1/', deployed, { reason: 'its host 127.0.0.1 is a loopback address' }],
    [
      'https://10.1/',
      deployed,
      { reason: 'its host 10.0.0.1 is a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)' },
    ],
    [
      'https://[::ffff:169.254.169.254]/',
      deployed,
      { reason: 'its host [::ffff:a9fe:a9fe] is the IPv4-mapped form of the cloud metadata address' },
    ],
    [
      'https://[::ffff:10.0.0.1]/',
      deployed,
      {
        reason:
          'its host [::ffff:a00:1] is the IPv4-mapped form of a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
      },
    ],
    [
      'https://[::127.0.0.1]/',
      deployed,
      { reason: 'its host [::7f00:1] is an IPv4-compatible address (deprecated, ::/96)' },
    ],
    ['https://localhost/', deployed, { reason: 'its host localhost is a loopback name' }],
    ['https://LOCALHOST./', deployed, { reason: 'its host localhost. is a loopback name' }],
    ['https://api.localhost/', deployed, { reason: 'its host api.localhost is a loopback name' }],
    ['https://intranet/hook', deployed, { reason: 'its host intranet is not a fully qualified domain name' }],
    // The local stack: loopback http (and https), any port; nothing else is relaxed.
    ['http://127.0.0.1:4000/hook', local, { href: 'http://127.0.0.1:4000/hook' }],
    ['http://localhost:4000/hook', local, { href: 'http://localhost:4000/hook' }],
    ['http://LocalHost/hook', local, { href: 'http://localhost/hook' }],
    ['http://[::1]:4000/hook', local, { href: 'http://[::1]:4000/hook' }],
    ['https://127.0.0.1:4443/hook', local, { href: 'https://127.0.0.1:4443/hook' }],
    ['http://127.0.0.1:4000/hook', deployed, { reason: 'it must use https, not http' }],
    ['http://localhost:4000/hook', deployed, { reason: 'it must use https, not http' }],
    ['http://[::1]:4000/hook', deployed, { reason: 'it must use https, not http' }],
    ['http://127.0.0.2:4000/hook', local, { reason: 'it must use https, not http' }],
    ['https://127.0.0.2:4000/hook', local, { reason: 'its host 127.0.0.2 is a loopback address' }],
    ['http://localhost.test:4000/hook', local, { reason: 'it must use https, not http' }],
    ['http://api.localhost:4000/hook', local, { reason: 'it must use https, not http' }],
    ['http://10.0.0.1:4000/hook', local, { reason: 'it must use https, not http' }],
    ['http://hooks.example.com/', local, { reason: 'it must use https, not http' }],
    [
      'https://10.0.0.1/',
      local,
      { reason: 'its host 10.0.0.1 is a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)' },
    ],
    ['https://169.254.169.254/', local, { reason: 'its host 169.254.169.254 is the cloud metadata address' }],
    ['http://user:pass@127.0.0.1:4000/', local, { reason: 'it must not contain a user name or password' }],
    ['http://127.0.0.1:4000/#x', local, { reason: 'it must not contain a fragment (#…)' }],
  ];

  test.each(urls)('%s (%o) → %o', (raw, policy, verdict) => {
    const checked = checkEndpointUrl(raw, policy);
    if ('href' in verdict) expect(checked.ok ? { href: checked.url.href } : checked).toEqual(verdict);
    else expect(checked).toEqual({ ok: false, ...verdict });
  });
});
