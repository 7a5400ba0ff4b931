import 'server-only';
import { type ImportProblem, ImportProblemsError } from '@/engine/ingestion';
import { AppError } from '@/lib/errors';

/**
 * A file refused for its content (HTTP 400): the message lists every problem up to the cap, one a line, naming
 * the line or resource and the field but no command-line flag (the web shows it; the command line re-describes
 * the problems with its own flags).
 */
export class ImportRefusedError extends AppError {
  constructor(
    readonly problems: ImportProblem[],
    readonly totalProblems: number,
  ) {
    super('validation', new ImportProblemsError(problems, totalProblems).message, {
      fieldErrors: { file: `${totalProblems} problem${totalProblems === 1 ? '' : 's'}` },
    });
    this.name = 'ImportRefusedError';
  }

  static of(error: ImportProblemsError): ImportRefusedError {
    return new ImportRefusedError(error.problems, error.total);
  }
}

/** "Today" as a calendar date (UTC) for the plausibility checks; a day's slack covers sources ahead of UTC. */
export function todayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}
