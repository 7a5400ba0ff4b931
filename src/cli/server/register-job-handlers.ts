/**
 * Loads the modules that register background-job handlers (each calls registerJobHandler when imported),
 * so the worker in this process knows every kind of job. Add a line per module that owns a kind.
 */
export async function registerJobHandlers(): Promise<void> {
  await import('@/features/data-import/server/import-job-handlers');
  await import('@/features/policy-comparison/server/register-comparison-job');
}
