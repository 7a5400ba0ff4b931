import { describe, expect, it } from 'vitest';
import { conceptFromCodeableConcept, medicationCodeOf, normaliseNdc } from './medication-codes';

describe('medication codes', () => {
  it('normalises every NDC layout to the 11-digit 5-4-2 form', () => {
    expect(normaliseNdc('0069-2587-10')).toBe('00069258710'); // 4-4-2
    expect(normaliseNdc('50580-506-02')).toBe('50580050602'); // 5-3-2
    expect(normaliseNdc('12345-6789-1')).toBe('12345678901'); // 5-4-1
    expect(normaliseNdc('00069258710')).toBe('00069258710');
    expect(normaliseNdc('not-an-ndc')).toBe('not-an-ndc');
  });

  it('picks RxNorm, NDC and ATC codings by system, keeps another code and the text', () => {
    const concept = conceptFromCodeableConcept({
      coding: [
        { system: 'http://snomed.info/sct', code: '430127000', display: 'Oral Form Oxycodone' },
        { system: 'http://hl7.org/fhir/sid/ndc', code: '0069-2587-10' },
        { system: 'http://www.whocc.no/atc', code: 'j01xa01' },
        { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1807510' },
      ],
    });
    expect(concept).toEqual({
      rxnorm: '1807510',
      ndc: '00069258710',
      atc: 'J01XA01',
      otherCode: 'http://snomed.info/sct|430127000',
      text: 'Oral Form Oxycodone',
    });
    expect(medicationCodeOf(concept!)).toBe('rxnorm:1807510');
    expect(conceptFromCodeableConcept({ text: 'Metformin' })).toEqual({
      rxnorm: null,
      ndc: null,
      atc: null,
      otherCode: null,
      text: 'Metformin',
    });
    expect(conceptFromCodeableConcept({ coding: [] })).toBeNull();
  });
});
