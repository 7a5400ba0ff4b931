import pino from 'pino';
import { getEnvironment } from './env';

// Field names that may carry personal data: pino replaces their values before anything is written.
const redactedPaths = [
  'contactName',
  'contactEmail',
  'contactNumber',
  'message',
  'email',
  'phone',
  'password',
  'token',
  '*.contactName',
  '*.contactEmail',
  '*.contactNumber',
  '*.email',
  '*.phone',
  '*.password',
  '*.token',
  'headers.cookie',
  'headers.authorization',
];

let cachedLogger: pino.Logger | undefined;

export function getLogger(): pino.Logger {
  cachedLogger ??= pino({
    level: getEnvironment().LOG_LEVEL,
    base: { service: 'medaptive' },
    redact: { paths: redactedPaths, censor: '[redacted]' },
  });
  return cachedLogger;
}
