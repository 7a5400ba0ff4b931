/**
 * FNV-1a, 32 bits: a fast, well-spread hash of a short string, unsigned. Hand-written: a few lines, and the
 * same value everywhere it seeds a random stream (a message decision, an allocation sequence, a demo programme).
 */
export function fnv1a32(text: string, offsetBasis = 0x811c9dc5): number {
  let hash = offsetBasis;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
