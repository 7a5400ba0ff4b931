/**
 * SMS length: how many segments a text costs. Carriers send text in the GSM 03.38 7-bit alphabet when
 * every character is in it (160 characters in one segment, 153 per segment once split, the rest of the
 * 140 bytes carrying the concatenation header), else in UCS-2 (70, then 67 per segment, counted in
 * UTF-16 code units). Characters of the GSM extension table (€, [, ], {, }, ~, ^, |, \ and form feed)
 * take two septets, and an escape pair or a surrogate pair is never split across segments — which is
 * why the count packs characters greedily instead of dividing the length.
 */

const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const gsmExtension = new Set('\f^{}\\[~]|€');

export type SmsEncoding = 'gsm-7' | 'ucs-2';

export type SmsLength = {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** Units still free in the last segment. */
  remainingInSegment: number;
};

export function isGsm7(text: string): boolean {
  for (const character of text) if (!gsmBasic.has(character) && !gsmExtension.has(character)) return false;
  return true;
}

/** Segments of a text as a carrier counts them; an empty text is one (empty) segment. */
export function measureSms(text: string): SmsLength {
  const encoding: SmsEncoding = isGsm7(text) ? 'gsm-7' : 'ucs-2';
  const sizes = [...text].map((character) => (encoding === 'gsm-7' ? (gsmExtension.has(character) ? 2 : 1) : character.length));
  const units = sizes.reduce((sum, size) => sum + size, 0);
  const single = encoding === 'gsm-7' ? 160 : 70;
  if (units <= single) return { encoding, units, segments: 1, remainingInSegment: single - units };
  const perSegment = encoding === 'gsm-7' ? 153 : 67;
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > perSegment) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments, remainingInSegment: perSegment - used };
}

/**
 * Replacements that keep a text in GSM-7 (as Twilio's "smart encoding" does): Spanish á í ó ú lose their
 * accent (é, ñ, ü, ¿ and ¡ are GSM-7 already), typographic quotes and dashes become plain ones. A text
 * that keeps a character outside GSM-7 (an emoji) stays UCS-2.
 */
const smartReplacements: Readonly<Record<string, string>> = {
  á: 'a',
  í: 'i',
  ó: 'o',
  ú: 'u',
  Á: 'A',
  Í: 'I',
  Ó: 'O',
  Ú: 'U',
  â: 'a',
  ê: 'e',
  î: 'i',
  ô: 'o',
  û: 'u',
  ç: 'Ç',
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\u202F': ' ',
};

export function toGsm7WherePossible(text: string): string {
  return [...text].map((character) => smartReplacements[character] ?? character).join('');
}
