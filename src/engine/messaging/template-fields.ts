/**
 * The values a template may contain, and only these: what the patient's record holds about the dose the
 * message is about. Never a name — we do not hold one we may put in a message, and a lock screen shows
 * the text to whoever holds the phone. Placeholders are WhatsApp's named parameters (`{{medicine}}`),
 * so the same body is sent as a template and rendered for SMS.
 */

export const templateLanguages = ['en', 'es'] as const;
export type TemplateLanguage = (typeof templateLanguages)[number];

/** What the caller supplies; each placeholder reads one field. */
export type TemplateValues = {
  /** Display name of the medicine as the patient knows it (e.g. "Metformin 500 mg"). */
  medicine?: string;
  /** Local time of the dose, minutes after midnight (0–1439). */
  doseMinute?: number;
  /** Estimated whole days of supply left (0 or more). */
  daysOfSupplyLeft?: number;
};

export const placeholderNames = ['medicine', 'dose_time', 'days_left'] as const;
export type PlaceholderName = (typeof placeholderNames)[number];

export const placeholderFields: Readonly<Record<PlaceholderName, keyof TemplateValues>> = {
  medicine: 'medicine',
  dose_time: 'doseMinute',
  days_left: 'daysOfSupplyLeft',
};

export function isPlaceholderName(name: string): name is PlaceholderName {
  return (placeholderNames as readonly string[]).includes(name);
}

/** Longest medicine name we put in a message; longer ones are a data problem, not something to truncate silently. */
export const maxMedicineLength = 60;

/** A value ready for the body, or why it cannot be used. */
export type FormattedValue = { ok: true; text: string } | { ok: false; problem: 'missing-value' | 'invalid-value'; detail: string };

/** "8:05 am" in English, "08:05" in Spanish (the 24-hour clock is usual in Spanish-speaking countries). */
export function formatDoseTime(minute: number, language: TemplateLanguage): string {
  const hours = Math.floor(minute / 60);
  const minutes = String(minute % 60).padStart(2, '0');
  if (language === 'es') return `${String(hours).padStart(2, '0')}:${minutes}`;
  const suffix = hours < 12 ? 'am' : 'pm';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${suffix}`;
}

/** The unit goes with the number so no template has to agree a plural: "1 day", "3 days", "menos de un día". */
export function formatDaysLeft(days: number, language: TemplateLanguage): string {
  if (language === 'es') return days === 0 ? 'menos de un día' : days === 1 ? '1 día' : `${days} días`;
  return days === 0 ? 'less than a day' : days === 1 ? '1 day' : `${days} days`;
}

export function formatPlaceholder(name: PlaceholderName, values: TemplateValues, language: TemplateLanguage): FormattedValue {
  const field = placeholderFields[name];
  const value = values[field];
  if (value === undefined || value === null) return { ok: false, problem: 'missing-value', detail: `no value for ${field}` };
  switch (name) {
    case 'medicine': {
      const text = String(value).trim();
      if (text === '') return { ok: false, problem: 'missing-value', detail: 'medicine is empty' };
      // WhatsApp refuses parameters with new lines, tabs or more than four spaces in a row.
      if (/[\n\r\t]| {5}/.test(text))
        return { ok: false, problem: 'invalid-value', detail: 'medicine contains a line break, tab or run of spaces' };
      if (text.length > maxMedicineLength)
        return { ok: false, problem: 'invalid-value', detail: `medicine is longer than ${maxMedicineLength} characters` };
      return { ok: true, text };
    }
    case 'dose_time': {
      const minute = Number(value);
      if (!Number.isInteger(minute) || minute < 0 || minute >= 1440)
        return { ok: false, problem: 'invalid-value', detail: 'doseMinute must be a whole minute from 0 to 1439' };
      return { ok: true, text: formatDoseTime(minute, language) };
    }
    case 'days_left': {
      const days = Number(value);
      if (!Number.isFinite(days) || days < 0) return { ok: false, problem: 'invalid-value', detail: 'daysOfSupplyLeft must be 0 or more' };
      // An estimate: a partial day left is not a full day to count on.
      return { ok: true, text: formatDaysLeft(Math.floor(days), language) };
    }
  }
}
