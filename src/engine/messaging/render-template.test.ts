import { describe, expect, it } from 'vitest';
import { formatDaysLeft, formatDoseTime } from './template-fields';
import { findTemplate, templateLibrary, type MessageTemplate } from './template-library';
import { renderBody, renderSms, renderWhatsApp, SmsTooLongError, TemplateRenderError } from './render-template';

const template = (id: string, language: 'en' | 'es'): MessageTemplate => {
  const found = findTemplate(id, language);
  if (found === undefined) throw new Error(`no template ${id} ${language}`);
  return found;
};
const values = { medicine: 'Metformin 500 mg', doseMinute: 8 * 60 + 30, daysOfSupplyLeft: 3 };

describe('renderBody', () => {
  it('fills placeholders with the patient’s values in the template language', () => {
    expect(renderBody(template('reminder.neutral.1', 'en'), values)).toBe('Reminder: your Metformin 500 mg is due at 8:30 am.');
    expect(renderBody(template('reminder.neutral.1', 'es'), { ...values, doseMinute: 21 * 60 + 5 })).toBe(
      'Recordatorio: le toca su Metformin 500 mg a las 21:05.',
    );
    expect(renderBody(template('refill.neutral.1', 'en'), values)).toBe(
      'You have 3 days of Metformin 500 mg left. Time to arrange your refill.',
    );
    expect(renderBody(template('refill.neutral.1', 'es'), { ...values, daysOfSupplyLeft: 1 })).toBe(
      'Le queda Metformin 500 mg para 1 día. Es momento de pedir la reposición.',
    );
  });

  it('formats times and days left so no template has to agree a plural', () => {
    expect([0, 12 * 60, 13 * 60 + 7, 23 * 60 + 59].map((minute) => formatDoseTime(minute, 'en'))).toEqual([
      '12:00 am',
      '12:00 pm',
      '1:07 pm',
      '11:59 pm',
    ]);
    expect([0, 9 * 60 + 5].map((minute) => formatDoseTime(minute, 'es'))).toEqual(['00:00', '09:05']);
    expect([0, 1, 2].map((days) => formatDaysLeft(days, 'en'))).toEqual(['less than a day', '1 day', '2 days']);
    expect([0, 1, 6].map((days) => formatDaysLeft(days, 'es'))).toEqual(['menos de un día', '1 día', '6 días']);
    expect(renderBody(template('refill.loss.1', 'en'), { ...values, daysOfSupplyLeft: 2.9 })).toContain('Only 2 days of');
  });

  it('renders every template with the values we hold, leaving no placeholder behind', () => {
    for (const each of templateLibrary) expect(renderBody(each, values), `${each.id} ${each.language}`).not.toMatch(/[{}]/);
  });

  it('refuses, naming every placeholder it cannot fill, rather than send a gap', () => {
    const reminder = template('reminder.gain.1', 'en');
    expect(() => renderBody(reminder, { medicine: 'Metformin' })).toThrow(TemplateRenderError);
    try {
      renderBody(reminder, { medicine: '  ', doseMinute: 1440 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateRenderError);
      const renderError = error as TemplateRenderError;
      expect(renderError.templateId).toBe('reminder.gain.1');
      expect(renderError.problems).toEqual([
        { placeholder: 'medicine', problem: 'missing-value', detail: 'medicine is empty' },
        { placeholder: 'dose_time', problem: 'invalid-value', detail: 'doseMinute must be a whole minute from 0 to 1439' },
      ]);
      expect(renderError.message).toContain('{{medicine}}');
      expect(renderError.message).toContain('{{dose_time}}');
    }
    expect(() => renderBody(template('refill.gain.1', 'es'), { medicine: 'X', daysOfSupplyLeft: -1 })).toThrow(/days_left/);
    expect(() => renderBody(template('refill.gain.1', 'en'), { medicine: 'Line\nbreak', daysOfSupplyLeft: 3 })).toThrow(/line break/);
    expect(() => renderBody({ id: 'custom', language: 'en', body: 'Hello {{first_name}}, take {{medicine}}.' }, values)).toThrow(
      /\{\{first_name\}\}: not a field/,
    );
  });
});

describe('renderWhatsApp', () => {
  it('gives the text, the template name with named parameters, and buttons whose payloads carry the reference', () => {
    const rendered = renderWhatsApp(template('check-in.neutral.2', 'es'), values, { reference: 'dec-7' });
    expect(rendered.text).toBe('¿Qué tal con Metformin 500 mg? ¿Tomó la dosis de hoy de las 08:30?');
    expect(rendered.template).toEqual({
      name: 'medaptive_check_in_neutral_2',
      language: 'es',
      parameters: [
        { name: 'medicine', text: 'Metformin 500 mg' },
        { name: 'dose_time', text: '08:30' },
      ],
    });
    expect(rendered.buttons).toEqual([
      { title: 'Tomada ✓', payload: 'dose.taken:dec-7' },
      { title: 'Aún no', payload: 'dose.not-yet:dec-7' },
      { title: 'Omitir', payload: 'dose.skip:dec-7' },
    ]);
  });
});

describe('renderSms', () => {
  it('adds the service name and the reply keywords, and counts segments', () => {
    const rendered = renderSms(template('reminder.neutral.1', 'en'), values);
    expect(rendered.text).toBe(
      'Medaptive: Reminder: your Metformin 500 mg is due at 8:30 am.\nReply 1 = taken, 2 = not yet, 3 = skip. STOP to opt out.',
    );
    expect(rendered.length).toMatchObject({ encoding: 'gsm-7', segments: 1 });
    const spanish = renderSms(template('reminder.neutral.1', 'es'), values);
    expect(spanish.text.endsWith('Responda 1 = tomada, 2 = aún no, 3 = omitir. STOP para darse de baja.')).toBe(true);
    expect(spanish.length).toMatchObject({ encoding: 'ucs-2', units: 135, segments: 3 });
    expect(renderSms(template('reminder.neutral.1', 'es'), values, { smartEncoding: true }).length).toMatchObject({
      encoding: 'gsm-7',
      segments: 1,
    });
  });

  it('keeps every template within the limits with a 30-character medicine: English 2 GSM-7 segments, Spanish 4 UCS-2 (2 with smart encoding)', () => {
    const long = { medicine: 'Amlodipine/Valsartan 10/160 mg', doseMinute: 21 * 60 + 30, daysOfSupplyLeft: 12 };
    for (const each of templateLibrary) {
      const plain = renderSms(each, long);
      const smart = renderSms(each, long, { smartEncoding: true });
      if (each.language === 'en') expect(plain.length, each.id).toMatchObject({ encoding: 'gsm-7', segments: expect.any(Number) });
      expect(plain.length.segments, `${each.id} ${each.language}`).toBeLessThanOrEqual(each.language === 'en' ? 2 : 4);
      expect(smart.length.encoding, `${each.id} ${each.language}`).toBe('gsm-7');
      expect(smart.length.segments, `${each.id} ${each.language}`).toBeLessThanOrEqual(2);
    }
  });

  it('refuses a text over the segment limit with a typed error', () => {
    const education = template('education.neutral.2', 'es');
    expect(() => renderSms(education, values, { maxSegments: 1 })).toThrow(SmsTooLongError);
    try {
      renderSms(education, values, { maxSegments: 2 });
      expect.unreachable();
    } catch (error) {
      expect((error as SmsTooLongError).length).toMatchObject({ encoding: 'ucs-2', segments: 4 });
    }
  });
});
