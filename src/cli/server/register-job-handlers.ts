/**
 * Loads the modules that register background-job handlers (each calls registerJobHandler, naming its queue,
 * when imported), so the worker in this process knows every kind of job. Add a line per module that owns a
 * kind. This is where features meet: a feature exposes its handlers and use cases; a job that needs several
 * features gets its handler from a module here (src/cli/server) that calls them in turn (decision 006).
 */
export async function registerJobHandlers(): Promise<void> {
  await import('@/features/data-import/server/import-job-handlers');
  await import('@/features/policy-comparison/server/register-comparison-job');
  await import('@/features/policy-lab/server/register-lab-job');
  await import('@/features/message-replies/server/register-reply-jobs');
  // The send path takes each template's current stored version (admins edit them on the message examples page).
  const [{ registerMessageSendingJobs }, { getCurrentTemplate }] = await Promise.all([
    import('@/features/message-sending'),
    import('@/features/message-templates'),
  ]);
  registerMessageSendingJobs({ resolveTemplate: getCurrentTemplate });
  // A survey by message (decision 051): its questions and clarifications, on the 'messages' queue.
  const { registerSurveyMessageJobs } = await import('@/features/surveys');
  registerSurveyMessageJobs();
  await import('@/features/messaging-loop/server/register-messaging-loop-job');
  await import('@/features/policy-learning/server/register-policy-update-job');
  await import('@/features/risk/server/register-risk-jobs');
  await import('@/features/portal/server/register-portal-refresh-job');
  // The nightly prune of finished jobs and old webhook events (decision 037).
  const [{ createRecordsPruneHandler, recordsPruneJobKind }, { getDatabase }, { registerJobHandler }] = await Promise.all([
    import('./prune-operational-records'),
    import('@/db/client'),
    import('@/lib/server/jobs'),
  ]);
  registerJobHandler(recordsPruneJobKind, createRecordsPruneHandler(getDatabase), { queue: 'default' });
}
