/**
 * What a reply to a dose message says about the dose: taken, not yet, skipped, missed (with the reason
 * when one is given), or unrecognised — kept as it was written and shown to the patient's clinicians,
 * never guessed. Reads WhatsApp button payloads we issued, reactions, the SMS digits 1/2/3, and free
 * text in English and Spanish. STOP, START and HELP are keywords (keywords.ts), handled before this.
 *
 * The rules are ordered: a number, emoji alone, a question (never an answer), "not yet", "skip", a
 * negated or missed dose, a confirmation, and last a reason on its own ("ran out" answers "did you take
 * it?" with no). Negations come before confirmations so "didn't take" and "no la tomé" are not "taken".
 */
import { parseButtonPayload, type ReplyAction } from './reply-options';
import { normaliseReply, type NormalisedReply } from './normalise-reply';

export const missReasons = ['forgot', 'side-effects', 'ran-out', 'cost', 'felt-fine', 'other'] as const;
export type MissReason = (typeof missReasons)[number];

export type DoseReplyIntent = 'taken' | 'not-yet' | 'skipped' | 'missed' | 'unrecognised';

export type ReplyClassification =
  { intent: 'taken' } | { intent: 'not-yet' | 'skipped' | 'missed'; reason: MissReason | null } | { intent: 'unrecognised' };

export type InboundReply =
  /** A quick-reply button; the title is read when the payload is not one of ours. */
  | { kind: 'button'; payload: string; title?: string }
  | { kind: 'text'; text: string }
  /** A WhatsApp reaction to our message. */
  | { kind: 'reaction'; emoji: string };

/** The dose status a reply sets (`dose_events.status` values); null when it sets none ("not yet", unrecognised). */
export function doseStatusOf(classification: ReplyClassification): 'taken' | 'missed' | 'skipped' | null {
  switch (classification.intent) {
    case 'taken':
      return 'taken';
    case 'missed':
      return 'missed';
    case 'skipped':
      return 'skipped';
    default:
      return null;
  }
}

const confirmSymbols = new Set(['👍', '👌', '✅', '✔', '✓', '☑', '💯', '🙌', '🆗', '💊']);
const missedSymbols = new Set(['👎', '❌', '✖', '✗', '✘']);
const laterSymbols = new Set(['⏰', '⏳', '⌛', '🕐']);

const words = (...alternatives: string[]) => new RegExp(`(?:^| )(?:${alternatives.join('|')})(?= |$)`);

/** Checked first: a side effect is often phrased with words of the other reasons ("no me siento bien"). */
const reasonRules: readonly (readonly [MissReason, RegExp])[] = [
  [
    'side-effects',
    words(
      'side ?effects?',
      'dizzy',
      'dizziness',
      'nause\\w*',
      'sick',
      'vomit\\w*',
      'throwing up',
      'threw up',
      'upset(?: my)? stomach',
      'stomach\\w*',
      'headaches?',
      'rash',
      'drowsy',
      'allerg\\w*',
      'reaction',
      '(?:feel|feeling|felt) (?:ill|unwell|awful|terrible|bad|rough|worse)',
      'not feeling (?:well|good|great)',
      '(?:dont|didnt|do not|did not) feel (?:well|good)',
      'makes? me feel',
      'made me feel',
      'efectos? secundarios?',
      'efectos adversos',
      'mare\\w*',
      'nauseas?',
      'dolor\\w*',
      'me (?:sienta|sientan|cae|caen|hace|hacen|sento|sentaron) mal',
      'me siento mal',
      'me sentia mal',
      'no me siento bien',
      'no me sentia bien',
      'malestar',
      'sarpullido',
      'estomago',
      'diarrea',
      'somnolencia',
    ),
  ],
  [
    'ran-out',
    words(
      'ran out',
      'run out',
      'running out',
      'none left',
      'nothing left',
      'no (?:more )?(?:pills|tablets|meds|medicine|medication|capsules)(?: left)?',
      'out of (?:pills|tablets|meds|medicine|medication|it|them)',
      'empty',
      '(?:need|needs|waiting for|waiting on)(?: a| my| the)? (?:refill|prescription|repeat|script)',
      'finished (?:the|my) (?:pack|box|bottle|pills|tablets)',
      'se me (?:acabo|acabaron|termino|terminaron)',
      'se (?:acabo|acabaron|termino|terminaron)',
      'no me (?:queda|quedan|quedaba|quedaban)',
      'no (?:tengo|tenia|hay|quedan?) (?:mas )?(?:pastillas|medicamento|medicina|pildoras|comprimidos|capsulas|pastilla)',
      'sin (?:pastillas|medicamento|medicina|pildoras|comprimidos)',
      'me (?:falta|faltan) (?:la receta|receta|pastillas|medicamento)',
      '(?:necesito|falta) (?:la )?(?:receta|reposicion)',
    ),
  ],
  [
    'cost',
    words(
      'cost\\w*',
      'expensive',
      'afford\\w*',
      'money',
      'price\\w*',
      'pay',
      'paying',
      'co ?pays?',
      'broke',
      'insurance',
      'caro',
      'cara',
      'caros',
      'caras',
      'dinero',
      'pagar\\w*',
      'precio',
      'costo',
      'coste',
      'cuesta',
      'no me alcanza',
      'plata',
    ),
  ],
  [
    'felt-fine',
    words(
      '(?:feel|feeling|felt) (?:fine|good|great|better|ok|okay|well)',
      '(?:im|i am) (?:fine|better|ok|okay|well)(?: now)?',
      '(?:dont|do not) need (?:it|them)',
      'no need',
      'me (?:siento|sentia|encuentro|encontraba) (?:bien|mejor)',
      '(?:estoy|estaba) (?:bien|mejor)',
      'no (?:lo |la |los |las )?(?:necesito|necesitaba)',
      'no hace falta',
    ),
  ],
  [
    'forgot',
    words(
      'forgot',
      'forget',
      'forgotten',
      'slipped my mind',
      '(?:didnt|did not|couldnt|could not) remember',
      'fell asleep',
      'olvid\\w*',
      'se me (?:paso|fue|olvido)',
      'no me (?:acorde|acordaba)',
      'me quede dormid[oa]',
      'me dormi',
    ),
  ],
];

const notYetPattern = words(
  'not yet',
  'later',
  'in a (?:bit|minute|min|sec|second|moment|while|few|mo)',
  'soon',
  'will do',
  'will take(?: it| them)?',
  'going to take',
  'gonna take',
  'about to',
  'not now',
  'shortly',
  '(?:aun|todavia) no',
  'mas tarde',
  'luego',
  'ahorita',
  'en (?:un|unos) (?:rato|ratito|momento|minutos?)',
  'ahora no',
  'despues',
  'en breve',
  'voy a tomar\\w*',
  'no (?:aun|todavia)',
  // "Not taken yet", "no me la he tomado todavía": not yet, rather than missed.
  '(?:yet|todavia|aun)$',
);

const skipPattern = words(
  'skip\\w*',
  'not today',
  'no dose today',
  'taking a break',
  'omit\\w*',
  'saltar\\w*',
  'salto',
  'me la salto',
  'hoy no',
  'no (?:la |lo )?voy a tomar',
);

const missedPattern = words(
  'missed',
  'miss(?:ed)? (?:it|my|the|today|a|one|them)',
  '(?:didnt|did not|havent|have not|hasnt|has not|not|never|couldnt|could not|cant|cannot|wont|will not) (?:take|taken|took|get|have|had)',
  'not taken',
  'not done',
  'forgot',
  'forgotten',
  'no (?:me )?(?:la |lo |las |los )?(?:he )?(?:tome|tomado|tomada|tomo|pude|tomare)',
  'sin tomar',
  'perdi (?:la )?(?:dosis|toma)',
  'olvid\\w*',
  'se me (?:paso|fue|olvido)',
);

/** "No" that answers the question, not "no problem" or "no side effects". */
const bareNoPattern =
  /^(?:no|nope|nah|nop|negative|nel)(?! (?:problem|problems|worries|side|issues|issue|problema|problemas|hay problema|efectos))(?: |$)/;

const takenPattern = words(
  'taken',
  'took',
  'done',
  'yes',
  'yess',
  'yep',
  'yeah',
  'yup',
  'i did',
  'did it',
  'had it',
  'all good',
  'all taken',
  'confirmed',
  'sorted',
  'si',
  'sip',
  'tomad[oa]s?',
  'tome',
  'ya (?:la |lo )?tome',
  'me (?:la |lo )?tome',
  'listo',
  'lista',
  'hecho',
  'hecha',
  'claro',
  'por supuesto',
  'ya esta',
  'confirmo',
  // Said while taking it: no confirmation would follow.
  'taking (?:it|them) now',
  '(?:me )?(?:la |lo )?tomo ahora',
  'ahora (?:me )?(?:la |lo )?tomo',
  'correcto',
);

/** Replies that confirm only when they are the whole message ("y" is also Spanish for "and"). */
const wholeMessageTaken = new Set(['y', 'ya', 'k', 'ok taken', 'ok done', 'si ya', 'ya si']);

/** After a "no", these still say it was taken: "no, ya la tomé", "no worries I took it" is caught earlier. */
const strongTakenPattern = words('took', 'taken', 'already taken', 'tomad[oa]', 'ya (?:la |lo )?tome', 'me (?:la |lo )?tome');

/** Words that say no more than "no" / "missed"; anything beyond them is a reason, if only "other". */
const fillerWords = new Set(
  'no nope nah nop negative nel i im it its them my the a dose doses pill pills medicine today tonight this morning evening yet sorry not didnt did have havent had take taken took miss missed still sadly unfortunately oh oops and but yes ok okay hoy la lo las los me he mi dosis pastilla pastillas tome tomado tomada tomo perdon lo siento si ya esta manana noche skip skipping skipped omitir salto please thanks thank you gracias por favor de que el en al of for to with just still todavia aun now ahora'.split(
    ' ',
  ),
);

/** The reason a rule recognises, else null. */
export function knownReasonOf(text: string): MissReason | null {
  for (const [reason, pattern] of reasonRules) if (pattern.test(text)) return reason;
  return null;
}

/** The reason given: a known one, "other" for words beyond a plain no, null when none was given. */
export function reasonOf(reply: NormalisedReply): MissReason | null {
  return knownReasonOf(reply.text) ?? (reply.words.some((word) => !fillerWords.has(word)) ? 'other' : null);
}

function classifyText(raw: string): ReplyClassification {
  const reply = normaliseReply(raw);
  const { text, symbols } = reply;
  if (text === '' && symbols.length === 0) return { intent: 'unrecognised' };
  if (text === '') {
    if (symbols.every((symbol) => confirmSymbols.has(symbol))) return { intent: 'taken' };
    if (symbols.every((symbol) => missedSymbols.has(symbol))) return { intent: 'missed', reason: null };
    if (symbols.every((symbol) => laterSymbols.has(symbol))) return { intent: 'not-yet', reason: null };
    return { intent: 'unrecognised' };
  }
  // The SMS keywords (reply-options.ts), alone.
  if (text === '1') return { intent: 'taken' };
  if (text === '2') return { intent: 'not-yet', reason: null };
  if (text === '3') return { intent: 'skipped', reason: null };
  if (reply.isQuestion) return { intent: 'unrecognised' };
  if (wholeMessageTaken.has(text) && symbols.every((symbol) => confirmSymbols.has(symbol))) return { intent: 'taken' };
  // "Later" is not a reason for a dose that may still be taken; only a recognised one is kept.
  if (notYetPattern.test(text)) return { intent: 'not-yet', reason: knownReasonOf(text) };
  if (skipPattern.test(text)) return { intent: 'skipped', reason: reasonOf(reply) };
  if (missedPattern.test(text)) return { intent: 'missed', reason: reasonOf(reply) };
  if (bareNoPattern.test(text)) return strongTakenPattern.test(text) ? { intent: 'taken' } : { intent: 'missed', reason: reasonOf(reply) };
  const confirmingSymbols = symbols.length > 0 && symbols.every((symbol) => confirmSymbols.has(symbol));
  if (takenPattern.test(text) || (confirmingSymbols && reply.words.length <= 3)) return { intent: 'taken' };
  const reason = knownReasonOf(text);
  if (reason !== null) return { intent: 'missed', reason };
  return { intent: 'unrecognised' };
}

const intentOfAction: Readonly<Record<ReplyAction, ReplyClassification>> = {
  taken: { intent: 'taken' },
  'not-yet': { intent: 'not-yet', reason: null },
  skip: { intent: 'skipped', reason: null },
};

export function classifyReply(inbound: InboundReply): ReplyClassification {
  switch (inbound.kind) {
    case 'button': {
      const parsed = parseButtonPayload(inbound.payload);
      if (parsed !== null) return intentOfAction[parsed.action];
      return inbound.title === undefined ? { intent: 'unrecognised' } : classifyText(inbound.title);
    }
    case 'reaction': {
      const { symbols, text } = normaliseReply(inbound.emoji);
      if (text === '' && symbols.length > 0 && symbols.every((symbol) => confirmSymbols.has(symbol))) return { intent: 'taken' };
      if (text === '' && symbols.length > 0 && symbols.every((symbol) => missedSymbols.has(symbol)))
        return { intent: 'missed', reason: null };
      return { intent: 'unrecognised' };
    }
    case 'text':
      return classifyText(inbound.text);
  }
}
