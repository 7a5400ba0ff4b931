import { describe, expect, it } from 'vitest';
import { resolveClientAddress } from './client-address';

describe('resolveClientAddress', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(resolveClientAddress({ remoteAddress: '203.0.113.9', forwardedFor: '1.2.3.4', trustedProxies: [] })).toBe('203.0.113.9');
    expect(resolveClientAddress({ remoteAddress: '203.0.113.9', forwardedFor: '1.2.3.4', trustedProxies: ['10.0.0.1'] })).toBe(
      '203.0.113.9',
    );
  });

  it('takes the nearest untrusted hop behind trusted proxies, so a prepended value cannot spoof it', () => {
    expect(
      resolveClientAddress({
        remoteAddress: '10.0.0.1',
        forwardedFor: '6.6.6.6, 198.51.100.7, 10.0.0.2',
        trustedProxies: ['10.0.0.1', '10.0.0.2'],
      }),
    ).toBe('198.51.100.7');
  });

  it('normalises IPv4-mapped IPv6 addresses', () => {
    expect(resolveClientAddress({ remoteAddress: '::ffff:127.0.0.1', forwardedFor: '198.51.100.1', trustedProxies: ['127.0.0.1'] })).toBe(
      '198.51.100.1',
    );
    expect(resolveClientAddress({ remoteAddress: '::ffff:192.0.2.5', forwardedFor: undefined, trustedProxies: [] })).toBe('192.0.2.5');
  });

  it('falls back to the peer when the forwarded hop is not an address', () => {
    expect(resolveClientAddress({ remoteAddress: '127.0.0.1', forwardedFor: 'not-an-ip', trustedProxies: ['127.0.0.1'] })).toBe(
      '127.0.0.1',
    );
  });
});
