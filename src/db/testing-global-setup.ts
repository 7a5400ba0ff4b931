import { ensurePgliteTemplate, ensurePostgresTemplate } from './testing';

/**
 * Vitest global setup: builds the migrated test-database templates once, before the workers start, so
 * parallel test files copy them instead of each migrating (or racing to build) one.
 */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl !== undefined && serverUrl !== '') await ensurePostgresTemplate(serverUrl);
}
