/** The code systems a product can be matched by (DESIGN §6 `products`: RxNorm, NDC, ATC). */
export const codeSystems = {
  rxnorm: ['http://www.nlm.nih.gov/research/umls/rxnorm', 'urn:oid:2.16.840.1.113883.6.88'],
  ndc: ['http://hl7.org/fhir/sid/ndc', 'urn:oid:2.16.840.1.113883.6.69'],
  atc: ['http://www.whocc.no/atc', 'urn:oid:2.16.840.1.113883.6.73'],
} as const;

export type CodedSystem = keyof typeof codeSystems;

/** A medication as a source names it: the codes we can match products by, any other code, and its text. */
export type MedicationConcept = {
  rxnorm: string | null;
  /** 11 digits (5-4-2) when the source's NDC could be normalised, else as written. */
  ndc: string | null;
  atc: string | null;
  /** `system|code` of the first coding in another system (SNOMED CT, a local code). */
  otherCode: string | null;
  text: string | null;
};

export type CodingLike = { system?: string | undefined; code?: string | undefined; display?: string | undefined };
export type CodeableConceptLike = { coding?: CodingLike[] | undefined; text?: string | undefined };

function systemOf(system: string | undefined): CodedSystem | null {
  if (system === undefined) return null;
  const normalised = system.trim().replace(/\/$/, '');
  for (const [name, uris] of Object.entries(codeSystems) as [CodedSystem, readonly string[]][]) {
    if (uris.includes(normalised)) return name;
  }
  return null;
}

/**
 * NDCs are written 4-4-2, 5-3-2, 5-4-1 (10 digits with hyphens) or as the 11-digit 5-4-2 billing form;
 * padding each hyphenated segment gives the 11-digit form, so the same package matches however written.
 */
export function normaliseNdc(code: string): string {
  const trimmed = code.trim();
  const segments = trimmed.split('-');
  if (segments.length === 3 && segments.every((segment) => /^\d+$/.test(segment))) {
    const [labeler, product, packageCode] = segments as [string, string, string];
    if (labeler.length <= 5 && product.length <= 4 && packageCode.length <= 2) {
      return `${labeler.padStart(5, '0')}${product.padStart(4, '0')}${packageCode.padStart(2, '0')}`;
    }
  }
  return trimmed;
}

export function conceptFromCodeableConcept(concept: CodeableConceptLike | undefined): MedicationConcept | null {
  if (concept === undefined) return null;
  const result: MedicationConcept = { rxnorm: null, ndc: null, atc: null, otherCode: null, text: null };
  let firstDisplay: string | null = null;
  for (const coding of concept.coding ?? []) {
    const code = coding.code?.trim();
    firstDisplay ??= coding.display?.trim() || null;
    if (code === undefined || code === '') continue;
    const system = systemOf(coding.system);
    if (system === 'rxnorm') result.rxnorm ??= code;
    else if (system === 'ndc') result.ndc ??= normaliseNdc(code);
    else if (system === 'atc') result.atc ??= code.toUpperCase();
    else if (coding.system !== undefined) result.otherCode ??= `${coding.system}|${code}`;
  }
  result.text = concept.text?.trim() || firstDisplay;
  return isEmptyConcept(result) ? null : result;
}

export function conceptFromText(text: string | undefined): MedicationConcept | null {
  const trimmed = text?.trim();
  return trimmed ? { rxnorm: null, ndc: null, atc: null, otherCode: null, text: trimmed } : null;
}

function isEmptyConcept(concept: MedicationConcept): boolean {
  return concept.rxnorm === null && concept.ndc === null && concept.atc === null && concept.otherCode === null && concept.text === null;
}

/** One string naming the medication (stored as `medication_code`): the most specific code first. */
export function medicationCodeOf(concept: MedicationConcept): string {
  if (concept.rxnorm !== null) return `rxnorm:${concept.rxnorm}`;
  if (concept.ndc !== null) return `ndc:${concept.ndc}`;
  if (concept.atc !== null) return `atc:${concept.atc}`;
  if (concept.otherCode !== null) return concept.otherCode;
  return concept.text ?? '';
}

/** True when the concept carries a code a product row can be created for. */
export function hasProductCode(concept: MedicationConcept): boolean {
  return concept.rxnorm !== null || concept.ndc !== null || concept.atc !== null;
}
