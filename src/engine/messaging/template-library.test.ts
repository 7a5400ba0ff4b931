import { describe, expect, it } from 'vitest';
import { messageCategories, messageFramings, templateId, templateVariantsPerArm } from '@/engine/policy/message-arms';
import { isPlaceholderName, placeholderNames, templateLanguages } from './template-fields';
import { checkTemplateBody, findTemplate, placeholdersIn, templateFor, templateLibrary } from './template-library';
import { parseButtonPayload } from './reply-options';
import { templateTexts } from './template-texts';

describe('template library', () => {
  it('has a template in English and Spanish for every arm and variant the simulator uses, and no other', () => {
    const expected = messageCategories.flatMap((category) =>
      messageFramings.flatMap((framing) =>
        Array.from({ length: templateVariantsPerArm }, (_, index) => templateId({ category, framing }, index + 1)),
      ),
    );
    expect(expected).toHaveLength(60);
    for (const language of templateLanguages) {
      expect(Object.keys(templateTexts[language]).sort()).toEqual([...expected].sort());
      for (const id of expected) expect(findTemplate(id, language)?.body).toBeTruthy();
    }
    expect(templateLibrary).toHaveLength(expected.length * templateLanguages.length);
  });

  it('uses only placeholders we hold (medicine, dose time, days of supply left) and every body passes the WhatsApp checks', () => {
    for (const template of templateLibrary) {
      const used = placeholdersIn(template.body);
      expect(used.every(isPlaceholderName), `${template.id} ${template.language}: ${used.join(', ')}`).toBe(true);
      expect(checkTemplateBody(template.body), `${template.id} ${template.language}`).toEqual([]);
      expect(template.placeholders).toEqual(used);
    }
    // Every field is used somewhere, so none is dead weight.
    const usedAnywhere = new Set(templateLibrary.flatMap((template) => template.placeholders));
    expect([...usedAnywhere].sort()).toEqual([...placeholderNames].sort());
  });

  it('uses the same placeholders in both languages of a template', () => {
    for (const template of templateLibrary.filter(({ language }) => language === 'en')) {
      expect([...(findTemplate(template.id, 'es')?.placeholders ?? [])].sort(), template.id).toEqual([...template.placeholders].sort());
    }
  });

  it('reminds with the dose time and asks for a refill with the days left', () => {
    for (const template of templateLibrary) {
      if (template.arm.category === 'reminder') expect(template.placeholders, template.id).toContain('dose_time');
      if (template.arm.category === 'refill') expect(template.placeholders, template.id).toContain('days_left');
      expect(template.placeholders, template.id).toContain('medicine');
    }
  });

  it('records WhatsApp name, language, category and approval status', () => {
    const reminder = findTemplate('reminder.gain.2', 'es');
    expect(reminder?.whatsApp).toEqual({
      name: 'medaptive_reminder_gain_2',
      language: 'es',
      category: 'utility',
      approval: 'not-submitted',
    });
    expect(findTemplate('check-in.social.1', 'en')?.whatsApp.name).toBe('medaptive_check_in_social_1');
    expect(findTemplate('education.loss.3', 'en')?.whatsApp.category).toBe('marketing');
    expect(findTemplate('encouragement.neutral.1', 'en')?.whatsApp.category).toBe('marketing');
    expect(findTemplate('refill.social.3', 'en')?.whatsApp.category).toBe('utility');
    for (const template of templateLibrary) expect(template.whatsApp.name).toMatch(/^[a-z0-9_]{1,512}$/);
  });

  it('offers Taken ✓ / Not yet / Skip buttons and the 1/2/3 SMS keywords, in the template language', () => {
    const en = findTemplate('reminder.neutral.1', 'en');
    const es = findTemplate('reminder.neutral.1', 'es');
    expect(en?.buttons.map(({ title }) => title)).toEqual(['Taken ✓', 'Not yet', 'Skip']);
    expect(es?.buttons.map(({ title }) => title)).toEqual(['Tomada ✓', 'Aún no', 'Omitir']);
    expect(es?.smsKeywords.map(({ keyword, label }) => `${keyword}=${label}`)).toEqual(['1=tomada', '2=aún no', '3=omitir']);
    for (const template of templateLibrary) {
      for (const button of template.buttons) {
        expect(button.title.length).toBeLessThanOrEqual(20);
        expect(parseButtonPayload(button.payload)?.action).toBe(button.action);
      }
    }
  });

  it('picks the patient language when the library has it, else English', () => {
    expect(templateFor('refill.loss.1', 'es-MX')?.language).toBe('es');
    expect(templateFor('refill.loss.1', 'ES')?.language).toBe('es');
    expect(templateFor('refill.loss.1', 'fr')?.language).toBe('en');
    expect(templateFor('refill.loss.1', null)?.language).toBe('en');
    expect(templateFor('refill.loss.9', 'en')).toBeUndefined();
  });
});

describe('checkTemplateBody', () => {
  it('names every problem at once', () => {
    const problems = checkTemplateBody('{{first_name}}, your {{medicine}}{{dose_time}} is due {soon}');
    expect(problems.map(({ problem }) => problem)).toEqual([
      'Unknown placeholder {{first_name}}.',
      'The body starts with a placeholder; WhatsApp refuses that.',
      'Two placeholders are side by side; put words between them.',
      'The body has a stray brace.',
    ]);
    expect(problems[0]?.placeholder).toBe('first_name');
    expect(checkTemplateBody('Your dose is due at {{dose_time}}').map(({ problem }) => problem)).toEqual([
      'The body ends with a placeholder; WhatsApp refuses that.',
    ]);
    expect(checkTemplateBody('  ')).toEqual([{ problem: 'The body is empty.' }]);
    expect(checkTemplateBody(`Take {{medicine}} now.${'x'.repeat(1024)}`).map(({ problem }) => problem)).toEqual([
      'The body is longer than 1024 characters.',
    ]);
  });
});
