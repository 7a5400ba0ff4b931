import 'server-only';
import type { Database } from '@/db/client';
import { keywordReplies, type KeywordAction, matchKeyword, type TemplateLanguage } from '@/engine/messaging';
import { type ConsentChannel, type ConsentPurpose, consentPurposes, type ConsentSource } from '@/lib/domain/consent';
import { AppError } from '@/lib/errors';
import {
  allCombinations,
  appendConsentEvents,
  type ConsentChange,
  keywordConsentSources,
  lockPatient,
  readConsentState,
  stateKey,
} from './consent-state';

export type ConsentKeywordResult = {
  /** The keyword's action, or null when the text is not a keyword (then it is an answer to read as such). */
  action: KeywordAction | null;
  keyword: string | null;
  language: TemplateLanguage | null;
  /** What to answer on the channel (the carriers require it for STOP, START and HELP); null for no keyword. */
  reply: string | null;
  /** The ledger changes made (none for HELP or a keyword that changes nothing). */
  changes: ConsentChange[];
};

const keywordSource: Readonly<Record<ConsentChannel, ConsentSource>> = {
  sms: 'sms-keyword',
  whatsapp: 'whatsapp-keyword',
  app: 'app-keyword',
};

/**
 * Applies an inbound STOP/START/HELP (the engine's keyword lists, English and Spanish) to the ledger.
 * STOP on any channel withdraws every opt-in on every channel, every purpose: the confirmation promises
 * "no more messages from us on any channel". START (or YES when opted out) on a channel restores there
 * what a keyword withdrew; with nothing to restore and no opt-in on that channel, it opts in to reminders,
 * the messages the confirmation promises. HELP changes nothing and returns the help text.
 */
export async function applyConsentKeyword(options: {
  database: Database;
  patientId: string;
  channel: ConsentChannel;
  text: string;
  /** When the message arrived (default now): the changes take effect then. */
  at?: Date;
}): Promise<ConsentKeywordResult> {
  const { patientId, channel } = options;
  const effectiveAt = options.at ?? new Date();
  return options.database.transaction(async (transaction) => {
    if (!(await lockPatient(transaction, patientId))) throw new AppError('not_found', 'There is no such patient.');
    const state = await readConsentState({ database: transaction, patientId });
    const withdrawnByKeyword = (purpose: ConsentPurpose) => {
      const current = state.get(stateKey(channel, purpose));
      return current !== undefined && !current.granted && keywordConsentSources.has(current.source);
    };
    const optedIn = (purpose: ConsentPurpose) => state.get(stateKey(channel, purpose))?.granted === true;
    const optedOut = consentPurposes.some(withdrawnByKeyword) && !consentPurposes.some(optedIn);

    const match = matchKeyword(options.text, { optedOut });
    if (match === null) return { action: null, keyword: null, language: null, reply: null, changes: [] };

    let changes: ConsentChange[] = [];
    if (match.action === 'opt-out') {
      changes = allCombinations()
        .filter((combination) => state.get(stateKey(combination.channel, combination.purpose))?.granted === true)
        .map((combination) => ({ ...combination, granted: false }));
    } else if (match.action === 'opt-in') {
      const restore = consentPurposes.filter(withdrawnByKeyword);
      const purposes: ConsentPurpose[] = restore.length > 0 ? restore : consentPurposes.some(optedIn) ? [] : ['reminders'];
      changes = purposes.map((purpose) => ({ channel, purpose, granted: true }));
    }
    await appendConsentEvents({
      database: transaction,
      patientId,
      changes,
      source: keywordSource[channel],
      actorUserId: null,
      effectiveAt,
    });
    return {
      action: match.action,
      keyword: match.keyword,
      language: match.language,
      reply: keywordReplies[match.action][match.language],
      changes,
    };
  });
}
