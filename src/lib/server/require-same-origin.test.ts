import { describe, expect, it } from 'vitest';
import type { AppError } from '@/lib/errors';
import { requireSameOrigin } from './require-same-origin';

function verdict(headers: Record<string, string>): number {
  const request = new Request('http://localhost:3000/api/imports', { method: 'POST', headers: { host: 'localhost:3000', ...headers } });
  try {
    requireSameOrigin(request, { allowedOrigins: ['https://medaptive.example.org'] });
    return 200;
  } catch (error) {
    return (error as AppError).httpStatus;
  }
}

describe('requireSameOrigin', () => {
  it('refuses what another site makes a browser send: a form, a no-cors fetch, a same-site sibling', () => {
    expect(verdict({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' })).toBe(403);
    expect(verdict({ 'sec-fetch-site': 'same-site', origin: 'https://other.medaptive.example.org' })).toBe(403);
    // Browsers without Fetch Metadata still send Origin.
    expect(verdict({ origin: 'https://evil.test' })).toBe(403);
    expect(verdict({ origin: 'null' })).toBe(403);
    expect(verdict({ origin: 'http://localhost:3001' })).toBe(403);
  });

  it('accepts our own pages (by Fetch Metadata, by PUBLIC_URL or by Host) and clients that are not browsers', () => {
    expect(verdict({ 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3000' })).toBe(200);
    expect(verdict({ 'sec-fetch-site': 'none' })).toBe(200);
    expect(verdict({ origin: 'https://medaptive.example.org' })).toBe(200);
    expect(verdict({ origin: 'http://localhost:3000' })).toBe(200);
    // curl and scripts send neither header, and carry no cookie a page could have borrowed.
    expect(verdict({})).toBe(200);
  });
});
