import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages, outboxMessages } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { clientAddressHeader } from '@/lib/client-address';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { GET as getContactUs } from './route';

const query = new URLSearchParams({
  subject: 'Pilot in our clinic',
  message: 'Could we talk about a pilot for 200 patients?',
  contactName: 'Ada Lovelace',
  contactEmail: 'ada@example.org',
}).toString();

const contact = (headers: Record<string, string>) =>
  getContactUs(
    new NextRequest(`http://localhost:3000/api/contact-us?${query}`, {
      headers: { host: 'localhost:3000', [clientAddressHeader]: '198.51.100.30', ...headers },
    }),
  );

describe.each(testDatabaseBackends())('GET /api/contact-us on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  beforeEach(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
  });
  afterEach(async () => {
    server.restore();
    await database.dispose();
  });

  const stored = async () => ({
    messages: (await database.database.select({ id: contactMessages.id }).from(contactMessages)).length,
    emails: (await database.database.select({ id: outboxMessages.id }).from(outboxMessages)).length,
  });

  it('refuses what another site makes its visitors’ browsers load (an <img>), storing and sending nothing', async () => {
    // What Chromium sends for <img src="https://medaptive…/api/contact-us?…"> on another site: no Origin on a GET.
    const image = await contact({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' });
    expect(image.status).toBe(403);
    expect(((await image.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    // A sibling subdomain is not us either.
    expect((await contact({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(await stored()).toEqual({ messages: 0, emails: 0 });
  });

  it('still takes the form’s own same-origin fetch, and a request that is not from a browser', async () => {
    const form = await contact({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'content-type': 'application/json' });
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ success: true });
    // curl or a script: neither Sec-Fetch-Site nor Origin, and no visitor's browser to borrow.
    expect((await contact({})).status).toBe(200);
    expect(await stored()).toEqual({ messages: 2, emails: 2 });
  });
});
