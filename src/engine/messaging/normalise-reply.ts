/**
 * What a patient typed, reduced to comparable words: case, accents (so "sí", "si" and "SÍ" agree),
 * apostrophes ("didn't" → "didnt"), punctuation, emoji variation selectors and skin tones, and letters
 * held down ("yesss", "nooo") are flattened; emoji are kept as tokens of their own.
 */

export type NormalisedReply = {
  /** Words joined by single spaces: "no se me olvido". */
  text: string;
  words: readonly string[];
  /** Emoji and symbols, one token each: "👍", "✓". */
  symbols: readonly string[];
  /** The patient asked something (a question is never read as an answer). */
  isQuestion: boolean;
};

const tokenPattern = /[\p{L}\p{N}]+|\p{Extended_Pictographic}|\p{So}/gu;

export function normaliseReply(raw: string): NormalisedReply {
  const flattened = raw
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    // Combining marks: accents, and the emoji variation selector (✔️ → ✔).
    .replace(/\p{Mn}/gu, '')
    .replace(/[\u{1F3FB}-\u{1F3FF}\u200D]/gu, '')
    .replace(/['’‘`´]/g, '')
    .replace(/(\p{L})\1{2,}/gu, '$1')
    .normalize('NFC');
  const words: string[] = [];
  const symbols: string[] = [];
  for (const [token] of flattened.matchAll(tokenPattern)) {
    if (/[\p{L}\p{N}]/u.test(token)) words.push(token);
    else symbols.push(token);
  }
  return { text: words.join(' '), words, symbols, isQuestion: /[?¿]/.test(raw) };
}
