import { describe, expect, it } from 'vitest';
import { defaultPersonalisedSettings } from '@/engine/policy/personalised';
import { fieldErrorsOf } from '@/lib/parse-input';
import {
  actionLabel,
  actionOf,
  labEndDateOf,
  labFormSchema,
  labFormValuesOf,
  labRunInputSchema,
  labRunKey,
  sameLabSettings,
} from './schemas';

const form = { messagesPerWeekCap: '3', quietStart: '21:00', quietEnd: '07:30', explorationFloor: '25', burdenWeight: '0.5' };

describe('labFormSchema', () => {
  it('turns the form as typed into the policy settings', () => {
    expect(labFormSchema.parse(form)).toEqual({
      sendProbabilityFloor: 0.25,
      sendProbabilityCeiling: defaultPersonalisedSettings.sendProbabilityCeiling,
      burdenWeight: 0.5,
      messagesPerWeekCap: 3,
      quietHours: { startMinute: 21 * 60, endMinute: 7 * 60 + 30 },
    });
    expect(labFormSchema.parse({ ...form, quietStart: ' ', quietEnd: '' }).quietHours).toBeNull();
  });

  it('names every field at fault', () => {
    const result = labFormSchema.safeParse({
      messagesPerWeekCap: '2.5',
      quietStart: '25:00',
      quietEnd: '',
      explorationFloor: '60',
      burdenWeight: 'x',
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({
      messagesPerWeekCap: 'Messages per week cap must be a whole number from 0 to 14.',
      quietStart: 'Quiet hours start must be a time such as 21:00 (leave both quiet-hours fields empty for none).',
      quietEnd: 'Quiet hours end must be a time such as 21:00 (leave both quiet-hours fields empty for none).',
      explorationFloor: 'Exploration floor must be a percentage from 0 to 50, such as 20.',
      burdenWeight: 'Burden weight must be a number from 0 to 0.5, such as 0.02.',
    });
    const same = labFormSchema.safeParse({ ...form, quietEnd: '21:00' });
    expect(same.success ? {} : fieldErrorsOf(same.error)).toEqual({ quietEnd: 'Quiet hours end must differ from the start.' });
  });

  it('round-trips the default settings through the form', () => {
    const values = labFormValuesOf(defaultPersonalisedSettings);
    expect(labFormSchema.parse(values)).toEqual(defaultPersonalisedSettings);
  });
});

describe('labRunInputSchema and labRunKey', () => {
  const input = { patients: 600, seed: 1, settings: defaultPersonalisedSettings };

  it('bounds the cohort and refuses unknown keys', () => {
    expect(labRunInputSchema.safeParse(input).success).toBe(true);
    expect(labRunInputSchema.safeParse({ ...input, patients: 5001 }).success).toBe(false);
    expect(labRunInputSchema.safeParse({ ...input, patients: 59 }).success).toBe(false);
    expect(labRunInputSchema.safeParse({ ...input, days: 10 }).success).toBe(false);
    expect(
      labRunInputSchema.safeParse({ ...input, settings: { ...defaultPersonalisedSettings, sendProbabilityCeiling: 0.1 } }).success,
    ).toBe(false);
  });

  it('gives the same key to the same settings in any order, another to other settings', () => {
    const reordered = { seed: 1, settings: { ...defaultPersonalisedSettings }, patients: 600 };
    expect(labRunKey(reordered)).toBe(labRunKey(input));
    expect(labRunKey({ ...input, seed: 2 })).not.toBe(labRunKey(input));
    expect(sameLabSettings(defaultPersonalisedSettings, { ...defaultPersonalisedSettings, burdenWeight: 4 })).toBe(false);
    expect(sameLabSettings(defaultPersonalisedSettings, { ...defaultPersonalisedSettings, quietHours: null })).toBe(
      defaultPersonalisedSettings.quietHours === null,
    );
  });
});

describe('actions', () => {
  it('numbers no message 0 and the arms from 1, as the policy does', () => {
    expect(actionLabel(0)).toBe('No message');
    expect(actionOf('reminder', 'neutral')).toBe(1);
    expect(actionLabel(actionOf('education', 'loss'))).toBe('education · loss');
  });
});

describe('labEndDateOf', () => {
  it('is the last of the simulated days', () => {
    expect(labEndDateOf({ startDate: '2025-01-01', days: 364 })).toBe('2025-12-30');
  });
});
