import { createHmac } from 'node:crypto';
import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { patientIdInPicker } from './patient-picker';

const profilePath = '/algorithms/patient-engagement/patient-profile';
const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** Today and the days either side (UTC): the dose's local day, whatever the patient's time zone. */
const daysAround = () => [-1, 0, 1].map((offset) => longDate.format(new Date(Date.now() + offset * 86_400_000)));

test.describe('/dev/phone', () => {
  test('the demo patient taps "Taken" on WhatsApp and the clinician’s calendar shows the dose confirmed', async ({
    browser,
    page,
    signIn,
  }) => {
    // Three accounts' pages and the profile rendered again until each job has run: a profile render takes 10–20 s when
    // CI's other workers are busy, so the default 30 s (or 90 s with test.slow) is not enough.
    test.setTimeout(240_000);
    // The demo patient's pseudonym, as they see their own record.
    const patientContext = await browser.newContext();
    await signIn('patient', patientContext);
    const own = await patientContext.newPage();
    await own.goto(profilePath);
    const pseudonym =
      (await own.getByRole('region', { name: 'Patient' }).locator('span.font-semibold').first().textContent())?.trim() ?? '';
    await patientContext.close();
    expect(pseudonym).not.toBe('');

    // Dev-only helpers (served where /dev/outbox is): a verified test number, and a message as the local channel stores it.
    const number = await page.request.post('/api/dev/phone/test-number', { data: { pseudonym } });
    expect(number.status()).toBe(200);
    const body = `Time for your medicine (${Date.now()}). Tap Taken when done.`;
    const outbound = await page.request.post('/api/dev/phone/outbound', { data: { pseudonym, channel: 'whatsapp', body } });
    expect(outbound.status()).toBe(200);

    // The clinician's calendar before: which of the days around today were confirmed already.
    const clinicianContext = await browser.newContext();
    await signIn('clinician', clinicianContext);
    const clinician = await clinicianContext.newPage();
    await clinician.goto(profilePath);
    const patientId = await patientIdInPicker(clinician, pseudonym);
    const openProfile = async () => {
      await clinician.goto(`${profilePath}?patient=${patientId}`);
      await expect(clinician.getByRole('heading', { name: 'Proportion of days covered' })).toBeVisible();
    };
    const takenDays = async () => {
      const taken: string[] = [];
      for (const day of daysAround()) {
        if ((await clinician.getByRole('gridcell', { name: `${day}: taken`, exact: false }).count()) > 0) taken.push(day);
      }
      return taken;
    };
    await openProfile();
    const before = await takenDays();
    // The demo data ends long before today and no other spec records this patient's doses: nothing is confirmed yet.
    expect(before).toEqual([]);

    await page.goto(`/dev/phone?patient=${encodeURIComponent(pseudonym)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Phone');
    const whatsApp = page.getByRole('list', { name: 'WhatsApp messages' });
    await expect(whatsApp.getByText(body)).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('group', { name: 'Quick replies to the latest message' }).getByRole('button', { name: 'Taken ✓' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Sent through the webhook.' })).toBeVisible();
    await expect(whatsApp.getByTestId('phone-message-inbound').getByText('Taken ✓').last()).toBeVisible();

    // The reply job records the dose; the calendar shows it within seconds.
    await expect
      .poll(
        async () => {
          await openProfile();
          const after = await takenDays();
          return after.some((day) => !before.includes(day));
        },
        { timeout: 20_000, intervals: [1000] },
      )
      .toBe(true);

    // A reply the engine cannot read (a question) is kept for the clinician under "Replies to read".
    const question = `Can I take it with grapefruit juice? (${Date.now()})`;
    await page.getByRole('textbox', { name: 'WhatsApp reply' }).fill(question);
    await page.getByRole('form', { name: 'Reply by WhatsApp' }).getByRole('button', { name: 'Send' }).click();
    await expect(whatsApp.getByText(question)).toBeVisible();
    const replies = clinician.getByRole('region', { name: 'Replies to read' });
    await expect
      .poll(
        async () => {
          await openProfile();
          return replies.getByText(question).count();
        },
        { timeout: 20_000, intervals: [1000] },
      )
      .toBe(1);
    expect(await seriousAccessibilityViolations(clinician)).toEqual([]);
    await replies.getByTestId('reply-to-read').filter({ hasText: question }).getByRole('button', { name: 'Mark as read' }).click();
    await expect(replies.getByRole('status')).toHaveText('Marked as read.');
    await expect(replies.getByText(question)).toHaveCount(0);
    await clinicianContext.close();
  });

  test('a forged webhook is refused', async ({ request }) => {
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const forged = createHmac('sha256', 'not-the-app-secret').update(body).digest('hex');
    const whatsApp = await request.post('/api/webhooks/whatsapp', {
      data: body,
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': `sha256=${forged}` },
    });
    expect(whatsApp.status()).toBe(401);
    const twilio = await request.post('/api/webhooks/twilio/sms', {
      form: { MessageSid: 'SMforged', From: '+15550000000', Body: 'STOP' },
      headers: { 'X-Twilio-Signature': 'Zm9yZ2Vk' },
    });
    expect([401, 403]).toContain(twilio.status());
  });
});
