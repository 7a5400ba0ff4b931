import 'server-only';
import { createHash, randomBytes } from 'node:crypto';

/** API keys are shown once and stored only as a hash. */
export function newApiKey(): string {
  return `mdk_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
