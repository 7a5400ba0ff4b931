import { expect, seriousAccessibilityViolations, test } from './fixtures';
import { expectChartDrawn } from './support/charts';

const path = '/algorithms/patient-engagement/messaging-overview';

for (const role of ['clinician', 'admin'] as const) {
  test(`${role === 'clinician' ? 'a clinician' : 'an admin'} sees the messaging figures and narrows them to WhatsApp in the address`, async ({
    page,
    signIn,
  }) => {
    test.slow();
    await signIn(role);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Patient Messaging System - Overview' })).toBeVisible();
    const population = page.getByTestId('overview-population');
    // Every figure names its period and population: the clinician's is their organisation, the admin's everyone.
    await expect(population).toContainText(role === 'clinician' ? 'of your organisation’s patients' : 'of all patients');
    await expect(population).toContainText(/^[\d,]+ messages /);
    const before = await population.textContent();
    const outcomes = page.getByTestId('outcomes-table');
    await expect(outcomes.getByRole('rowheader', { name: 'All channels' })).toBeVisible();
    await expect(outcomes).toContainText('95% CI');
    await expectChartDrawn(page.getByRole('img', { name: /^Messages sent per day by channel/ }));
    await expect(page.getByRole('table', { name: /^Patients per messaging programme/ })).toBeVisible();
    await expect(page.getByTestId('next-send')).toBeVisible();
    expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);

    const channel = page.getByRole('button', { name: /Channel/ });
    await channel.focus();
    await page.keyboard.press('Enter');
    const whatsapp = page.getByRole('option', { name: 'WhatsApp' });
    await expect(whatsapp).toBeVisible();
    await whatsapp.click();
    await expect(channel).toContainText('WhatsApp');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/[?&]channel=whatsapp/);
    await expect(population).toContainText('channel WhatsApp');
    await expect.poll(async () => population.textContent()).not.toBe(before);
    await expect(outcomes.getByRole('rowheader')).toHaveText(['WhatsApp', 'All channels']);
  });
}

test('a government official sees the figures with small groups hidden', async ({ page, signIn }) => {
  await signIn('government');
  await page.goto(`${path}?period=last-3-months`);
  await expect(page.getByTestId('suppression-note')).toContainText('no group of fewer than 11 patients is shown');
  await expect(page.getByTestId('overview-population')).toContainText('of all patients');
  expect(await seriousAccessibilityViolations(page, 'main')).toEqual([]);
});
