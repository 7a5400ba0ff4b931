/**
 * The persona-accuracy curves of survey-evolution (docs/decisions/047, 055, 062): about a second of CPU for 4,000
 * simulated patients over up to 29 questions, deterministic per definition version, so measured once per process — in slices
 * that let other requests through in between, and ahead of the first reader when the server starts.
 */
import 'server-only';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '@/db/client';
import { personaParameters, personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import {
  type AccuracyCounts,
  countPersonaAccuracy,
  informativeQuestions,
  type PersonaAccuracy,
  SIMULATED_ANSWER_NOISE,
  type SurveyDefinition,
  summarisePersonaAccuracy,
} from '@/engine/surveys';
import { surveyKeys } from '../survey-keys';
import { findCurrentDefinition } from './survey-store';

/** Simulated patients for the accuracy curves: enough for ±1.5 points at 95% on a share near 50%. */
export const ACCURACY_PATIENTS = 4000;
/** Seed of the accuracy simulation: fixed, so the page shows the same figures on every load. */
export const ACCURACY_SEED = 47;
/** Patients per slice: tens of milliseconds of CPU at a time. */
const SLICE_PATIENTS = 100;

const shares = Object.fromEntries(personas.map((persona) => [persona, personaParameters[persona].share])) as Record<
  (typeof personas)[number],
  number
>;

// One measurement per definition version; readers arriving while it runs wait for the same one.
const accuracyCache = new Map<string, Promise<PersonaAccuracy>>();

async function measureInSlices(definition: SurveyDefinition): Promise<PersonaAccuracy> {
  const counts: AccuracyCounts[] = [];
  for (let from = 0; from < ACCURACY_PATIENTS; from += SLICE_PATIENTS) {
    counts.push(
      countPersonaAccuracy({
        definition,
        shares,
        patients: ACCURACY_PATIENTS,
        noise: SIMULATED_ANSWER_NOISE,
        uniformFor: (index) => {
          const stream = createRandomStream(ACCURACY_SEED, index, 'survey');
          return () => nextUniform(stream);
        },
        from,
        to: from + SLICE_PATIENTS,
      }),
    );
    await nextTurn();
  }
  return summarisePersonaAccuracy({ counts, patients: ACCURACY_PATIENTS, noise: SIMULATED_ANSWER_NOISE });
}

export function personaAccuracyFor(options: { definitionId: string; definition: SurveyDefinition }): Promise<PersonaAccuracy> {
  let measured = accuracyCache.get(options.definitionId);
  if (measured === undefined) {
    measured = measureInSlices(options.definition);
    accuracyCache.set(options.definitionId, measured);
    // A failure is not kept: the next reader measures again.
    measured.catch(() => accuracyCache.delete(options.definitionId));
  }
  return measured;
}

/** Measures the current version of each adaptive survey the page shows; returns how long it took (ms). */
export async function warmPersonaAccuracy(options: { database: Database }): Promise<number> {
  const started = performance.now();
  for (const surveyKey of surveyKeys) {
    const current = await findCurrentDefinition(options.database, surveyKey);
    if (current.definition.order !== 'adaptive' || informativeQuestions(current.definition).length === 0) continue;
    await personaAccuracyFor({ definitionId: current.id, definition: current.definition });
  }
  return performance.now() - started;
}
