import { isIP } from 'node:net';

function normalise(address: string): string {
  const trimmed = address.trim();
  // IPv4 clients on a dual-stack socket appear as ::ffff:a.b.c.d.
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/**
 * The address of the client behind a request. X-Forwarded-For is believed only when the direct peer is a
 * trusted proxy, and then only up to the first hop that is not itself trusted: a client cannot dodge a
 * per-client limit by sending its own header.
 */
export function resolveClientAddress(options: {
  remoteAddress: string | undefined;
  forwardedFor: string | undefined;
  trustedProxies: readonly string[];
}): string {
  const trusted = new Set(options.trustedProxies.map(normalise));
  const peer = normalise(options.remoteAddress ?? 'unknown');
  if (!trusted.has(peer) || !options.forwardedFor) {
    return peer;
  }
  const hops = options.forwardedFor
    .split(',')
    .map(normalise)
    .filter((hop) => hop !== '');
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index];
    if (hop !== undefined && !trusted.has(hop)) {
      return isIP(hop) === 0 ? peer : hop;
    }
  }
  return hops[0] !== undefined && isIP(hops[0]) !== 0 ? hops[0] : peer;
}

/** Whether the direct peer of a connection is one of the trusted proxies (TRUSTED_PROXIES). */
export function isTrustedPeer(remoteAddress: string | undefined, trustedProxies: readonly string[]): boolean {
  return remoteAddress !== undefined && trustedProxies.map(normalise).includes(normalise(remoteAddress));
}

/** Set by the server entry point (src/cli/serve.ts) on every request, after removing any value a client sent. */
export const clientAddressHeader = 'x-medaptive-client-address';
