import { expect, type Page } from '@playwright/test';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The clinician's patient picker on the patient profile (a combobox: type to narrow, choose to switch). */
export function patientPicker(page: Page) {
  return page.getByRole('combobox', { name: 'Patient of your organisation' });
}

// Synthetic patients are listed as "<pseudonym> (synthetic demo data)".
function optionFor(page: Page, pseudonym: string) {
  const escaped = pseudonym.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByRole('option', { name: new RegExp(`^${escaped}( \\(synthetic demo data\\))?$`) });
}

/** The id of the patient listed under this pseudonym in the profile's picker (each option carries it), leaving the page where it is. */
export async function patientIdInPicker(page: Page, pseudonym: string): Promise<string> {
  const picker = patientPicker(page);
  await picker.fill(pseudonym);
  const id = await optionFor(page, pseudonym).getAttribute('data-patient-id');
  await picker.press('Escape');
  expect(id, `picker option for ${pseudonym}`).toMatch(UUID);
  return id!;
}

/**
 * Chooses a patient in the picker — the one with this pseudonym, or else the first listed that is not the one
 * shown — with the keyboard's search or a click, waits for the address to name it, and returns its id.
 */
export async function choosePatient(page: Page, pseudonym?: string): Promise<string> {
  const picker = patientPicker(page);
  let option;
  if (pseudonym === undefined) {
    await picker.focus();
    await picker.press('ArrowDown');
    option = page.getByRole('option', { selected: false }).first();
  } else {
    await picker.fill(pseudonym);
    option = optionFor(page, pseudonym);
  }
  const id = await option.getAttribute('data-patient-id');
  expect(id, 'picker option id').toMatch(UUID);
  await option.click();
  await expect(page).toHaveURL(new RegExp(`[?&]patient=${id}(&|$)`));
  return id!;
}
