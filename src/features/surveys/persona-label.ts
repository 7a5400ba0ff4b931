/** "busy-professional" → "Busy professional" (the persona ids of src/engine/simulation/personas.ts). */
export function personaLabel(persona: string): string {
  const words = persona.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
