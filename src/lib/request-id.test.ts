import { describe, expect, it } from 'vitest';
import { clientAddressHeader } from './client-address';
import { requestContextOf } from './server/request-context';
import { resolveRequestId } from './request-id';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('keeps a trusted proxy’s id, never a client’s, and never an unsafe one', () => {
    expect(resolveRequestId({ incoming: 'lb-7f3a9c21', fromTrustedProxy: true })).toBe('lb-7f3a9c21');
    expect(resolveRequestId({ incoming: 'lb-7f3a9c21', fromTrustedProxy: false })).toMatch(uuid);
    expect(resolveRequestId({ incoming: 'x\r\nSet-Cookie: a=b', fromTrustedProxy: true })).toMatch(uuid);
    expect(resolveRequestId({ incoming: undefined, fromTrustedProxy: true })).toMatch(uuid);
  });

  it('gives route handlers the id and client address the server entry set', () => {
    expect(requestContextOf(new Headers({ 'x-request-id': 'req-00000001', [clientAddressHeader]: '192.0.2.1' }))).toEqual({
      requestId: 'req-00000001',
      clientAddress: '192.0.2.1',
    });
    const without = requestContextOf(new Headers());
    expect(without.requestId).toMatch(uuid);
    expect(without.clientAddress).toBe('unknown');
  });
});
