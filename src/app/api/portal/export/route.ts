import { getDatabase } from '@/db/client';
import { exportPortalTable, parsePortalFilterQuery, portalTableIdSchema } from '@/features/portal';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { parsePeriodQuery } from '@/lib/period-query';
import { csvDownloadResponse, errorResponse } from '@/lib/server/http';
import { requestContextOf } from '@/lib/server/request-context';
import { getSessionUser } from '@/lib/server/session';

// One portal table as CSV, with the page's filters, period and suppression ("Download CSV"); also the forecast's two tables.
export async function GET(request: Request) {
  try {
    const user = await getSessionUser(request.headers);
    if (user === null) throw new AppError('unauthenticated', noUserLoggedIn);
    const query = Object.fromEntries(new URL(request.url).searchParams);
    const period = parsePeriodQuery(query);
    const filters = parsePortalFilterQuery(query);
    // A download must be of what was asked for: a bad period or filter is refused rather than replaced.
    const problem = period.problem ?? filters.problem;
    if (problem !== null) throw new AppError('validation', problem.replace(/ Showing .*$/, ''));
    const parsedTable = portalTableIdSchema.safeParse(query.table);
    if (!parsedTable.success)
      throw new AppError('validation', parsedTable.error.issues[0]?.message ?? 'table: name one of the portal’s tables');
    const { filename, csv } = await exportPortalTable({
      database: getDatabase(),
      actor: user,
      table: parsedTable.data,
      choice: period.choice,
      filters: filters.filters,
      request: requestContextOf(request.headers),
      now: new Date(),
    });
    return csvDownloadResponse(csv, filename);
  } catch (error) {
    return errorResponse(error);
  }
}
