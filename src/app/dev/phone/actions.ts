'use server';

import { headers } from 'next/headers';
import { getDatabase } from '@/db/client';
import { createTestPatient, giveTestNumber, requestMessageNow, sendPhoneReply } from '@/features/messaging-webhooks';
import { getEnvironment } from '@/lib/env';
import { toActionResult } from '@/lib/server/action-result';
import { requireSameOrigin } from '@/lib/server/require-same-origin';

// /dev/phone's actions. No sign-in, as /dev/outbox: the developer plays the patient's phone, and the use cases
// refuse (404) wherever the local outbox is not served. The Origin is checked like every state-changing call.

export async function sendPhoneReplyAction(input: unknown) {
  return toActionResult(async () => {
    requireSameOrigin(await headers(), { requireBrowser: true });
    return sendPhoneReply({ database: getDatabase(), environment: getEnvironment(), input, now: new Date() });
  });
}

export async function requestMessageNowAction(input: unknown) {
  return toActionResult(async () => {
    requireSameOrigin(await headers(), { requireBrowser: true });
    return requestMessageNow({ database: getDatabase(), environment: getEnvironment(), input, now: new Date() });
  });
}

export async function giveTestNumberAction(input: unknown) {
  return toActionResult(async () => {
    requireSameOrigin(await headers(), { requireBrowser: true });
    return giveTestNumber({ database: getDatabase(), environment: getEnvironment(), input });
  });
}

export async function createTestPatientAction(input: unknown) {
  return toActionResult(async () => {
    requireSameOrigin(await headers(), { requireBrowser: true });
    return createTestPatient({ database: getDatabase(), environment: getEnvironment(), input, now: new Date() });
  });
}
