/**
 * Persona ids as pages show them (browser-safe). The ids are the simulator's (src/engine/simulation/personas.ts);
 * pages group patients without a persona (imported records) under `personaNotAssigned`.
 */

/** The key every page groups patients without a persona under. */
export const personaNotAssigned = 'not-assigned';

export function personaLabel(persona: string): string {
  if (persona === personaNotAssigned) return 'Not assigned';
  const words = persona.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
