/**
 * The signature vectors in ../shared/testdata (a real WhatsApp Cloud API delivery from pywa, Twilio's
 * documented request-validator vector): each verifies, and one changed byte of body, URL or signature fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTwilioSignatureValid, isWhatsAppSignatureValid, whatsAppSignatureOf } from './webhook-signatures';

const testdata = path.resolve(process.cwd(), '../shared/testdata');

function flipLastCharacter(text: string): string {
  const last = text.at(-1)!;
  return text.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

describe('WhatsApp X-Hub-Signature-256', () => {
  const vectorFiles = fs.readdirSync(path.join(testdata, 'whatsapp-cloud-api')).filter((file) => file.startsWith('signature_vector'));

  it('finds the vectors', () => {
    expect(vectorFiles.length).toBeGreaterThanOrEqual(1);
  });

  it.each(vectorFiles)('%s verifies over the exact bytes, and fails with any byte changed', (file) => {
    const vector = JSON.parse(fs.readFileSync(path.join(testdata, 'whatsapp-cloud-api', file), 'utf8')) as {
      app_secret: string;
      raw_body_file: string;
      raw_body_length: number;
      x_hub_signature_256: string;
    };
    const rawBody = new Uint8Array(fs.readFileSync(path.join(testdata, 'whatsapp-cloud-api', vector.raw_body_file)));
    expect(rawBody.byteLength).toBe(vector.raw_body_length);
    const appSecret = vector.app_secret;
    expect(whatsAppSignatureOf(rawBody, appSecret)).toBe(vector.x_hub_signature_256);
    expect(isWhatsAppSignatureValid({ rawBody, signature: vector.x_hub_signature_256, appSecret })).toBe(true);
    // Upper-case hex is the same signature.
    expect(isWhatsAppSignatureValid({ rawBody, signature: `sha256=${vector.x_hub_signature_256.slice(7).toUpperCase()}`, appSecret })).toBe(
      true,
    );

    const changedBody = rawBody.slice();
    changedBody[100] = changedBody[100]! ^ 0x01;
    expect(isWhatsAppSignatureValid({ rawBody: changedBody, signature: vector.x_hub_signature_256, appSecret })).toBe(false);
    const changedSignature = vector.x_hub_signature_256.slice(0, -1) + (vector.x_hub_signature_256.endsWith('0') ? '1' : '0');
    expect(isWhatsAppSignatureValid({ rawBody, signature: changedSignature, appSecret })).toBe(false);
    expect(isWhatsAppSignatureValid({ rawBody, signature: vector.x_hub_signature_256, appSecret: `${appSecret}x` })).toBe(false);
    for (const malformed of [null, '', 'sha256=', vector.x_hub_signature_256.slice(7), `sha1=${vector.x_hub_signature_256.slice(7)}`]) {
      expect(isWhatsAppSignatureValid({ rawBody, signature: malformed, appSecret })).toBe(false);
    }
  });
});

describe('X-Twilio-Signature (the official library)', () => {
  const file = JSON.parse(fs.readFileSync(path.join(testdata, 'twilio/signature_vectors.json'), 'utf8')) as {
    vectors: { id: string; auth_token: string; url: string; params: Record<string, string>; expected_signature: string }[];
  };

  it('finds the vectors', () => {
    expect(file.vectors.length).toBeGreaterThanOrEqual(1);
  });

  it.each(file.vectors.map((vector) => [vector.id, vector] as const))('%s verifies, and fails with any part changed', (_id, vector) => {
    const base = { url: vector.url, params: vector.params, signature: vector.expected_signature, authToken: vector.auth_token };
    expect(isTwilioSignatureValid(base)).toBe(true);
    expect(isTwilioSignatureValid({ ...base, signature: flipLastCharacter(vector.expected_signature.replace(/=+$/, '')) + '=' })).toBe(
      false,
    );
    expect(isTwilioSignatureValid({ ...base, url: vector.url.replace('https://', 'http://') })).toBe(false);
    const [firstKey] = Object.keys(vector.params);
    expect(isTwilioSignatureValid({ ...base, params: { ...vector.params, [firstKey!]: `${vector.params[firstKey!]}0` } })).toBe(false);
    expect(isTwilioSignatureValid({ ...base, authToken: `${vector.auth_token}0` })).toBe(false);
    expect(isTwilioSignatureValid({ ...base, signature: null })).toBe(false);
    expect(isTwilioSignatureValid({ ...base, signature: '' })).toBe(false);
  });
});
