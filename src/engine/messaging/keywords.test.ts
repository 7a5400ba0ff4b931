import { describe, expect, it } from 'vitest';
import { interpretInbound } from './interpret-inbound';
import { keywordLists, keywordReplies, matchKeyword } from './keywords';
import { measureSms } from './sms-encoding';

describe('matchKeyword', () => {
  it('opts out on every listed keyword in either language, whatever the case, accents, spacing and punctuation', () => {
    for (const keyword of [...keywordLists['opt-out'].en, ...keywordLists['opt-out'].es]) {
      for (const variant of [keyword, keyword.toLowerCase(), ` ${keyword}. `, `${keyword}!!`, `${keyword} 🛑`]) {
        expect([variant, matchKeyword(variant)?.action]).toEqual([variant, 'opt-out']);
      }
    }
  });

  it('covers the carriers’ English set and the Spanish equivalents', () => {
    for (const keyword of ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'])
      expect(matchKeyword(keyword)).toMatchObject({ action: 'opt-out', language: 'en' });
    for (const keyword of ['BAJA', 'PARAR', 'CANCELAR', 'ALTO', 'Darme de baja', 'fin'])
      expect(matchKeyword(keyword)).toMatchObject({ action: 'opt-out', language: 'es' });
  });

  it('opts in on START, UNSTOP and the Spanish equivalents', () => {
    expect(matchKeyword('START')).toEqual({ action: 'opt-in', keyword: 'START', language: 'en' });
    expect(matchKeyword('unstop')).toMatchObject({ action: 'opt-in' });
    expect(matchKeyword('Alta')).toEqual({ action: 'opt-in', keyword: 'ALTA', language: 'es' });
    expect(matchKeyword('comenzar')).toMatchObject({ action: 'opt-in', language: 'es' });
  });

  it('treats YES and SÍ as opting in only for a patient who is opted out', () => {
    expect(matchKeyword('YES')).toBeNull();
    expect(matchKeyword('Sí')).toBeNull();
    expect(matchKeyword('yes', { optedOut: true })).toEqual({ action: 'opt-in', keyword: 'YES', language: 'en' });
    expect(matchKeyword('si', { optedOut: true })).toEqual({ action: 'opt-in', keyword: 'SÍ', language: 'es' });
  });

  it('answers HELP, INFO and AYUDA', () => {
    expect(matchKeyword('help')).toMatchObject({ action: 'help', language: 'en' });
    expect(matchKeyword('INFO')).toMatchObject({ action: 'help', language: 'en' });
    expect(matchKeyword('Ayuda')).toMatchObject({ action: 'help', language: 'es' });
    expect(matchKeyword('información')).toMatchObject({ action: 'help', language: 'es' });
  });

  it('honours a leading stop word in a short message about the messages, but not talk about the medicine', () => {
    expect(matchKeyword('Stop texting me please')).toMatchObject({ action: 'opt-out', keyword: 'STOP' });
    expect(matchKeyword('STOP ALL MESSAGES')).toMatchObject({ action: 'opt-out' });
    expect(matchKeyword('unsubscribe me')).toMatchObject({ action: 'opt-out', keyword: 'UNSUBSCRIBE' });
    expect(matchKeyword('Baja por favor')).toMatchObject({ action: 'opt-out', keyword: 'BAJA' });
    expect(matchKeyword('parar los mensajes')).toMatchObject({ action: 'opt-out', keyword: 'PARAR' });
    expect(matchKeyword('Stop taking them?')).toBeNull();
    expect(matchKeyword('stop taking my pills because of the side effects')).toBeNull();
    expect(matchKeyword('End of my pack today')).toBeNull();
    expect(matchKeyword('Cancel my appointment')).toBeNull();
    expect(matchKeyword('La tensión está alta')).toBeNull();
    expect(matchKeyword('')).toBeNull();
  });

  it('has answers in both languages that say how to stop, and no opt-out answer that costs more than two segments', () => {
    for (const language of ['en', 'es'] as const) {
      expect(keywordReplies.help[language]).toMatch(/STOP/);
      expect(keywordReplies['opt-in'][language]).toMatch(/STOP/);
      expect(keywordReplies['opt-out'][language]).toMatch(/START/);
      expect(measureSms(keywordReplies['opt-out'][language]).segments).toBeLessThanOrEqual(2);
    }
  });
});

describe('interpretInbound', () => {
  it('reads keywords before dose answers, and never from a button', () => {
    expect(interpretInbound({ kind: 'text', text: 'STOP' })).toEqual({
      kind: 'keyword',
      keyword: { action: 'opt-out', keyword: 'STOP', language: 'en' },
    });
    expect(interpretInbound({ kind: 'text', text: 'Taken' })).toEqual({ kind: 'reply', reply: { intent: 'taken' } });
    expect(interpretInbound({ kind: 'text', text: 'sí' }, { optedOut: true })).toMatchObject({
      kind: 'keyword',
      keyword: { action: 'opt-in' },
    });
    expect(interpretInbound({ kind: 'button', payload: 'callback_data', title: 'STOP' })).toEqual({
      kind: 'reply',
      reply: { intent: 'unrecognised' },
    });
  });
});
