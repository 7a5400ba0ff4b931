/**
 * STOP, START and HELP on any channel. An opt-out keyword withdraws consent to messaging on every
 * channel (SMS, WhatsApp and the app), whichever channel it came on; an opt-in keyword restores it; a
 * help keyword gets an answer saying what the service is and how to stop. Checked before a reply is
 * read as an answer about a dose.
 *
 * English: the carrier-industry set Twilio applies on long codes (STOP, STOPALL, UNSUBSCRIBE, CANCEL,
 * END, QUIT, REVOKE, OPTOUT; START, UNSTOP, YES; HELP, INFO), so our ledger and Twilio's own blocking
 * agree. Spanish has no industry list, so we take the words Spanish-language programmes advertise —
 * BAJA / DARME DE BAJA (Spain's "darse de baja", to unsubscribe), ALTO (US Spanish-language
 * programmes' "Responde ALTO") — and the direct translations of the English set: PARAR, PARA and
 * DETENER (stop), CANCELAR (cancel), FIN (end), SALIR (quit); ALTA, COMENZAR, INICIAR, REANUDAR to opt
 * back in; AYUDA to ask for help.
 *
 * A keyword counts when it is the whole message (case, accents, punctuation and emoji ignored), as the
 * carriers do. Wanting to stop is also honoured when an unambiguous stop word (STOP, STOPALL,
 * UNSUBSCRIBE, BAJA, PARAR) leads a short message about the messages themselves ("Stop texting me
 * please", "Baja por favor"), but not "Stop taking them?", which is about the medicine. YES and SÍ opt
 * in only a patient who is opted out (Twilio does the same); otherwise they answer a dose message.
 */
import { normaliseReply } from './normalise-reply';
import type { TemplateLanguage } from './template-fields';

export const keywordActions = ['opt-out', 'opt-in', 'help'] as const;
export type KeywordAction = (typeof keywordActions)[number];

export type KeywordMatch = {
  action: KeywordAction;
  /** The keyword as we list it (upper case). */
  keyword: string;
  /** The language of the keyword, for the answer. */
  language: TemplateLanguage;
};

type KeywordList = Readonly<Record<KeywordAction, Readonly<Record<TemplateLanguage, readonly string[]>>>>;

export const keywordLists: KeywordList = {
  'opt-out': {
    en: ['STOP', 'STOPALL', 'STOP ALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT', 'OPT OUT'],
    es: ['BAJA', 'DAR DE BAJA', 'DARME DE BAJA', 'PARAR', 'PARA', 'ALTO', 'DETENER', 'CANCELAR', 'FIN', 'SALIR'],
  },
  'opt-in': {
    en: ['START', 'UNSTOP'],
    es: ['ALTA', 'DARME DE ALTA', 'COMENZAR', 'INICIAR', 'REANUDAR'],
  },
  help: {
    en: ['HELP', 'INFO'],
    es: ['AYUDA', 'INFORMACIÓN'],
  },
};

/** Opt in again only when the patient is opted out: otherwise these answer "did you take it?". */
const optInWhenOptedOut: Readonly<Record<TemplateLanguage, readonly string[]>> = { en: ['YES'], es: ['SÍ'] };

/** Stop words that cannot mean anything else at the start of a message. */
const leadingStopWords = new Set(['stop', 'stopall', 'unsubscribe', 'baja', 'parar']);
/** What may follow a leading stop word: talk about the messages, politeness — never the medicine. */
const aboutTheMessages = new Set(
  'all please now me messages message texts text texting txt txts sending send reminders reminder whatsapp sms this these them it thanks thank you the your from medaptive de por favor ya los las mensajes mensaje recordatorios todo todos gracias enviar envien enviarme mandar manden mandarme me esto estos ahora whatsapps'.split(
    ' ',
  ),
);

const key = (keyword: string) => normaliseReply(keyword).text;

const exactKeywords = new Map<string, KeywordMatch>();
for (const action of keywordActions) {
  for (const language of ['en', 'es'] as const) {
    for (const keyword of keywordLists[action][language]) exactKeywords.set(key(keyword), { action, keyword, language });
  }
}

export function matchKeyword(text: string, options: { optedOut?: boolean } = {}): KeywordMatch | null {
  const reply = normaliseReply(text);
  if (reply.text === '') return null;
  const exact = exactKeywords.get(reply.text);
  if (exact !== undefined) return exact;
  if (options.optedOut === true) {
    for (const language of ['en', 'es'] as const) {
      const keyword = optInWhenOptedOut[language].find((candidate) => key(candidate) === reply.text);
      if (keyword !== undefined) return { action: 'opt-in', keyword, language };
    }
  }
  const [first, ...rest] = reply.words;
  if (
    first !== undefined &&
    leadingStopWords.has(first) &&
    !reply.isQuestion &&
    rest.length <= 5 &&
    rest.every((word) => aboutTheMessages.has(word))
  ) {
    return exactKeywords.get(first) ?? null;
  }
  return null;
}

/**
 * What we answer to a keyword, in its language. Carriers require the opt-out confirmation and a help
 * answer that names the service, says how to stop and how to get help; no patient detail appears.
 */
export const keywordReplies: Readonly<Record<KeywordAction, Readonly<Record<TemplateLanguage, string>>>> = {
  'opt-out': {
    en: 'Medaptive: you will get no more messages from us on any channel. Reply START to opt back in.',
    es: 'Medaptive: no le enviaremos más mensajes por ningún canal. Responda ALTA o START para volver a recibirlos.',
  },
  'opt-in': {
    en: 'Medaptive: you will get your medicine messages again. Reply STOP at any time to stop, HELP for help.',
    es: 'Medaptive: volverá a recibir los mensajes sobre su medicación. Responda BAJA o STOP para dejar de recibirlos, AYUDA para ayuda.',
  },
  help: {
    en: 'Medaptive sends reminders and check-ins about your medicines for your care team. Reply 1 when a dose is taken. Reply STOP to stop all messages. For medical questions, contact your care team.',
    es: 'Medaptive le envía recordatorios y preguntas sobre su medicación de parte de su equipo de salud. Responda 1 cuando tome una dosis. Responda BAJA o STOP para no recibir más mensajes. Para dudas médicas, contacte con su equipo de salud.',
  },
};
