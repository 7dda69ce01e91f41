/** The SSRF guard's address rules, without any network. */
import { describe, expect, it } from 'vitest';
import { assertUrlShapeAllowed, isPublicAddress, parseIpv6 } from '../../lib/platform/outbound/ssrf.ts';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1', // CGNAT
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254', // cloud metadata
    '172.16.0.1',
    '172.31.255.254',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1', // multicast
    '239.255.255.250',
    '240.0.0.1', // reserved
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:7f00:1', // the same, in hex
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    'fc00::1', // ULA
    'fd12:3456::1',
    'fe80::1', // link-local
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1', // multicast
    '2001:db8::1', // documentation
    '2001::1', // Teredo
    '100::1',
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '[::1]',
  ])('blocks %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('lets %s through', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an IP address at all', () => {
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('parseIpv6', () => {
  it('expands ::, embedded dotted quads, brackets and zones', () => {
    expect(Array.from(parseIpv6('::1')!)).toEqual([...Array(15).fill(0), 1]);
    expect(Array.from(parseIpv6('[::ffff:1.2.3.4]')!).slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(Array.from(parseIpv6('fe80::1%eth0')!).slice(0, 2)).toEqual([0xfe, 0x80]);
    expect(Array.from(parseIpv6('2001:db8:0:0:0:0:0:1')!)).toEqual(Array.from(parseIpv6('2001:db8::1')!));
    expect(parseIpv6('127.0.0.1')).toBeNull();
  });
});

describe('assertUrlShapeAllowed', () => {
  const strict = { allowPrivateNetworks: false, allowHttp: false };
  const check =
    (url: string, options = strict) =>
    () =>
      assertUrlShapeAllowed(new URL(url), options);

  it('normalises other spellings of an address before judging it (the WHATWG URL parser does)', () => {
    for (const url of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://[::ffff:127.0.0.1]/',
      'https://[0:0:0:0:0:ffff:7f00:1]/',
    ]) {
      expect(check(url), url).toThrow(/not a public internet address/);
    }
  });

  it('requires https unless http is allowed, and no credentials', () => {
    expect(check('http://93.184.215.14/')).toThrow(/must use https/);
    expect(check('http://93.184.215.14/', { allowPrivateNetworks: false, allowHttp: true })).not.toThrow();
    expect(check('https://user:pw@93.184.215.14/')).toThrow(/credentials/);
    expect(check('https://user@93.184.215.14/')).toThrow(/credentials/);
    expect(check('https://93.184.215.14:8443/hook')).not.toThrow();
  });

  it('lets private addresses through only when allowed', () => {
    expect(check('https://10.0.0.1/')).toThrow();
    expect(check('https://10.0.0.1/', { allowPrivateNetworks: true, allowHttp: false })).not.toThrow();
  });
});
