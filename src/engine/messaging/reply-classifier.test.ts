import { describe, expect, it } from 'vitest';
import { buttonPayload, quickReplyButtons, smsReplyKeywords } from './reply-options';
import { classifyReply, doseStatusOf, type MissReason, type DoseReplyIntent } from './reply-classifier';
import { replyTexts } from '@/engine/simulation/message-response';

type Row = readonly [text: string, intent: DoseReplyIntent, reason?: MissReason | null];

// Real phrasings patients send, in both languages, with case, accent, punctuation and emoji variants.
const rows: readonly Row[] = [
  // Confirmations
  ['1', 'taken'],
  [' 1. ', 'taken'],
  ['Taken', 'taken'],
  ['TAKEN ✓', 'taken'],
  ['taken!!', 'taken'],
  ['Yes', 'taken'],
  ['yes!', 'taken'],
  ['Yesss', 'taken'],
  ['Yep, done', 'taken'],
  ['Yeah took it', 'taken'],
  ['I took it this morning with breakfast', 'taken'],
  ['Done ✅', 'taken'],
  ['All good', 'taken'],
  ['Y', 'taken'],
  ['👍', 'taken'],
  ['👍🏽', 'taken'],
  ['✔️', 'taken'],
  ['ok 👍', 'taken'],
  ['No worries, took it', 'taken'],
  ['Sí', 'taken'],
  ['si', 'taken'],
  ['SÍ', 'taken'],
  ['Siii', 'taken'],
  ['Sí, ya la tomé', 'taken'],
  ['ya me la tomé 😊', 'taken'],
  ['Tomada ✓', 'taken'],
  ['Ya', 'taken'],
  ['Listo!', 'taken'],
  ['Hecho', 'taken'],
  ['No, ya la tomé', 'taken'],
  ['Taking it now', 'taken'],
  ['Me la tomo ahora', 'taken'],
  // Not yet
  ['2', 'not-yet', null],
  ['Not yet', 'not-yet', null],
  ['Later', 'not-yet', null],
  ['In a bit', 'not-yet', null],
  ['will do', 'not-yet', null],
  ['Forgot, will take it later', 'not-yet', 'forgot'],
  ['Aún no', 'not-yet', null],
  ['aun no', 'not-yet', null],
  ['Todavía no la he tomado', 'not-yet', null],
  ['no todavía', 'not-yet', null],
  ['No me la he tomado todavía', 'not-yet', null],
  ["Haven't taken it yet", 'not-yet', null],
  ['Más tarde', 'not-yet', null],
  ['luego la tomo', 'not-yet', null],
  ['⏰', 'not-yet', null],
  // Skipped
  ['3', 'skipped', null],
  ['Skip', 'skipped', null],
  ['Skipping today', 'skipped', null],
  ['Not today', 'skipped', null],
  ['Skipping today, stomach is bad', 'skipped', 'side-effects'],
  ['Omitir', 'skipped', null],
  ['Hoy no', 'skipped', null],
  ['Hoy no, me siento mareada', 'skipped', 'side-effects'],
  // Missed, without and with a reason
  ['No', 'missed', null],
  ['no.', 'missed', null],
  ['NO!!', 'missed', null],
  ['Nope', 'missed', null],
  ['Missed', 'missed', null],
  ['missed it', 'missed', null],
  ["I didn't take it", 'missed', null],
  ['didnt take it', 'missed', null],
  ['Not taken', 'missed', null],
  ['👎', 'missed', null],
  ['No, I forgot', 'missed', 'forgot'],
  ['forgot sorry', 'missed', 'forgot'],
  ['Completely slipped my mind', 'missed', 'forgot'],
  ['No, fell asleep early', 'missed', 'forgot'],
  ['No they make me feel dizzy', 'missed', 'side-effects'],
  ['Missed it, side effects again', 'missed', 'side-effects'],
  ["No, I'm not feeling well", 'missed', 'side-effects'],
  ['No, ran out', 'missed', 'ran-out'],
  ['Run out', 'missed', 'ran-out'],
  ['None left', 'missed', 'ran-out'],
  ['Need a refill', 'missed', 'ran-out'],
  ["No, can't afford it this month", 'missed', 'cost'],
  ['Too expensive', 'missed', 'cost'],
  ['No, I feel fine now', 'missed', 'felt-fine'],
  ["I don't need them, I'm fine", 'missed', 'felt-fine'],
  ['No, I was at my daughters all day', 'missed', 'other'],
  ['No la tomé', 'missed', null],
  ['no la he tomado', 'missed', null],
  ['No, se me olvidó', 'missed', 'forgot'],
  ['Se me olvidó 😔', 'missed', 'forgot'],
  ['OLVIDÉ', 'missed', 'forgot'],
  ['No me acordé', 'missed', 'forgot'],
  ['No, me cae mal al estómago', 'missed', 'side-effects'],
  ['No me siento bien con esas pastillas', 'missed', 'side-effects'],
  ['Tengo mareos', 'missed', 'side-effects'],
  ['No, se me acabaron', 'missed', 'ran-out'],
  ['No me quedan pastillas', 'missed', 'ran-out'],
  ['No, es muy caro', 'missed', 'cost'],
  ['No tengo dinero para la receta', 'missed', 'cost'],
  ['No, ya me siento bien', 'missed', 'felt-fine'],
  ['No, estaba de viaje', 'missed', 'other'],
  // Unrecognised: kept and shown to clinicians, never guessed
  ['', 'unrecognised'],
  ['   ', 'unrecognised'],
  ['Thanks', 'unrecognised'],
  ['🙏', 'unrecognised'],
  ['😮', 'unrecognised'],
  ['Can I take it with food?', 'unrecognised'],
  ['¿Puedo tomarla con el café?', 'unrecognised'],
  ['Who is this', 'unrecognised'],
  ['Gracias', 'unrecognised'],
  ['Ok', 'unrecognised'],
];

describe('classifyReply: free text', () => {
  it('has a table of at least 80 phrasings in both languages', () => {
    expect(rows.length).toBeGreaterThanOrEqual(80);
    expect(
      rows.filter(([text]) => /[áéíóúñ¿¡]|\b(?:si|ya|hoy|me|la|se|aun|tengo|hecho|listo|omitir|gracias)\b/i.test(text)).length,
    ).toBeGreaterThanOrEqual(25);
  });

  it.each(rows.map(([text, intent, reason]) => ({ text, intent, reason })))('$text → $intent ($reason)', ({ text, intent, reason }) => {
    const classification = classifyReply({ kind: 'text', text });
    expect(classification.intent).toBe(intent);
    if (reason !== undefined) expect('reason' in classification ? classification.reason : undefined).toBe(reason);
  });

  it('reads every reply text the simulator writes for the dose intents as the simulator meant it', () => {
    const expected: Partial<Record<keyof typeof replyTexts, DoseReplyIntent>> = {
      taken: 'taken',
      later: 'not-yet',
      skipped: 'skipped',
      'need-refill': 'missed',
      question: 'unrecognised',
      thanks: 'unrecognised',
    };
    for (const [simulated, intent] of Object.entries(expected)) {
      for (const text of replyTexts[simulated as keyof typeof replyTexts])
        expect([text, classifyReply({ kind: 'text', text }).intent]).toEqual([text, intent]);
    }
  });
});

describe('classifyReply: buttons and reactions', () => {
  it('reads our button payloads whatever the language of the title, with or without a reference', () => {
    expect(classifyReply({ kind: 'button', payload: buttonPayload('taken'), title: 'Tomada ✓' })).toEqual({ intent: 'taken' });
    expect(classifyReply({ kind: 'button', payload: buttonPayload('not-yet', 'decision-42') })).toEqual({
      intent: 'not-yet',
      reason: null,
    });
    expect(classifyReply({ kind: 'button', payload: buttonPayload('skip', 'x:y') })).toEqual({ intent: 'skipped', reason: null });
  });

  it('falls back to the title for a payload that is not ours, and keeps it unrecognised when that says nothing', () => {
    expect(classifyReply({ kind: 'button', payload: 'callback_data', title: 'Taken ✓' })).toEqual({ intent: 'taken' });
    expect(classifyReply({ kind: 'button', payload: 'dose.swallowed', title: 'Not yet' })).toEqual({ intent: 'not-yet', reason: null });
    // The WhatsApp Cloud API fixture's button (payload "callback_data", title "title").
    expect(classifyReply({ kind: 'button', payload: 'callback_data', title: 'title' })).toEqual({ intent: 'unrecognised' });
    expect(classifyReply({ kind: 'button', payload: 'callback_data' })).toEqual({ intent: 'unrecognised' });
  });

  it('reads a thumbs-up reaction as taken, a thumbs-down as missed, anything else as unrecognised', () => {
    expect(classifyReply({ kind: 'reaction', emoji: '👍' })).toEqual({ intent: 'taken' });
    expect(classifyReply({ kind: 'reaction', emoji: '👍🏿' })).toEqual({ intent: 'taken' });
    expect(classifyReply({ kind: 'reaction', emoji: '👎' })).toEqual({ intent: 'missed', reason: null });
    expect(classifyReply({ kind: 'reaction', emoji: '😮' })).toEqual({ intent: 'unrecognised' });
    expect(classifyReply({ kind: 'reaction', emoji: '' })).toEqual({ intent: 'unrecognised' });
  });

  it('reads every button title and SMS keyword we offer, typed as text, as its action', () => {
    const intentOf = { taken: 'taken', 'not-yet': 'not-yet', skip: 'skipped' } as const;
    for (const language of ['en', 'es'] as const) {
      for (const { action, title } of quickReplyButtons(language))
        expect([title, classifyReply({ kind: 'text', text: title }).intent]).toEqual([title, intentOf[action]]);
      for (const { action, keyword } of smsReplyKeywords(language))
        expect(classifyReply({ kind: 'text', text: keyword }).intent).toBe(intentOf[action]);
    }
  });

  it('maps an answer to the dose status it sets', () => {
    expect(doseStatusOf({ intent: 'taken' })).toBe('taken');
    expect(doseStatusOf({ intent: 'missed', reason: 'cost' })).toBe('missed');
    expect(doseStatusOf({ intent: 'skipped', reason: null })).toBe('skipped');
    expect(doseStatusOf({ intent: 'not-yet', reason: null })).toBeNull();
    expect(doseStatusOf({ intent: 'unrecognised' })).toBeNull();
  });
});
