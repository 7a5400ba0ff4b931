import { getDatabase } from '@/db/client';
import { exportMessageLog, parseMessageFilterQuery } from '@/features/message-data-collection';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { parsePeriodQuery } from '@/lib/period-query';
import { csvDownloadResponse, errorResponse } from '@/lib/server/http';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

// The message log of the viewer's scope, period and filters as CSV ("Download the message log").
export async function GET(request: Request) {
  try {
    const user = await getSessionUser(request.headers);
    if (user === null) throw new AppError('unauthenticated', noUserLoggedIn);
    const query = Object.fromEntries(new URL(request.url).searchParams);
    const period = parsePeriodQuery(query);
    const filters = parseMessageFilterQuery(query);
    // A download must be of what was asked for: a bad period or filter is refused rather than replaced.
    const problem = period.problem ?? filters.problem;
    if (problem !== null) throw new AppError('validation', problem.replace(/ Showing .*$/, ''));
    const { filename, stream } = await exportMessageLog({
      database: getDatabase(),
      actor: user,
      choice: period.choice,
      filters: filters.filters,
      request: requestContextOf(request.headers),
      now: new Date(),
    });
    return csvDownloadResponse(stream, filename);
  } catch (error) {
    return errorResponse(error);
  }
}
