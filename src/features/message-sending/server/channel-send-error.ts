import 'server-only';
import { AppError, type ErrorCode } from '@/lib/errors';

/**
 * A provider refused a message. `passing` trouble (HTTP 429, 5xx, the provider's throttling codes, the
 * network) is an 'unavailable' or 'rate_limited' AppError, which the job queue retries with backoff;
 * anything else is permanent ('validation'): sending again would get the same answer, so the job fails
 * at once. The message names the provider and its code only, never the number or the text.
 */
export class ChannelSendError extends AppError {
  readonly provider: 'whatsapp-cloud-api' | 'twilio';
  readonly providerCode: string | null;
  readonly providerHttpStatus: number | null;
  readonly passing: boolean;
  /**
   * The provider may have taken the message even so: the request left and no answer came (a timeout, a
   * connection cut mid-request). Sending again could deliver it twice, so the send path does not (decision 019).
   */
  readonly uncertain: boolean;
  /** Short, stored as the decision's status_reason: e.g. 'whatsapp-131047', 'twilio-21610', 'whatsapp-http-500'. */
  readonly reason: string;

  constructor(options: {
    provider: 'whatsapp-cloud-api' | 'twilio';
    httpStatus: number | null;
    providerCode: string | null;
    description: string;
    code: Extract<ErrorCode, 'unavailable' | 'rate_limited' | 'validation'>;
    uncertain?: boolean;
    cause?: unknown;
  }) {
    const label = options.provider === 'twilio' ? 'Twilio' : 'The WhatsApp Cloud API';
    const detail = [
      options.httpStatus === null ? null : `HTTP ${options.httpStatus}`,
      options.providerCode === null ? null : `code ${options.providerCode}`,
    ]
      .filter((part) => part !== null)
      .join(', ');
    super(options.code, `${label} did not accept the message (${detail || 'no answer'}): ${options.description}.`, {
      cause: options.cause,
    });
    this.name = 'ChannelSendError';
    this.provider = options.provider;
    this.providerCode = options.providerCode;
    this.providerHttpStatus = options.httpStatus;
    this.passing = options.code !== 'validation';
    this.uncertain = options.uncertain ?? false;
    const short = options.provider === 'twilio' ? 'twilio' : 'whatsapp';
    this.reason =
      options.providerCode !== null
        ? `${short}-${options.providerCode}`
        : options.httpStatus !== null
          ? `${short}-http-${options.httpStatus}`
          : this.uncertain
            ? `${short}-no-answer`
            : `${short}-unreachable`;
  }
}

export function isChannelSendError(error: unknown): error is ChannelSendError {
  return error instanceof ChannelSendError;
}

/** Network failures before the request reached the provider: safe to send again. Anything else may have arrived. */
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ERR_INVALID_URL']);

/** Whether a failure without an answer leaves us unsure the provider got the message (fetch or axios errors). */
export function mayHaveArrived(error: unknown): boolean {
  const codes: unknown[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Object && depth < 4; depth += 1) {
    codes.push((current as { code?: unknown }).code);
    current = (current as { cause?: unknown }).cause;
  }
  return !codes.some((code) => typeof code === 'string' && notSentCodes.has(code));
}
