import 'server-only';
import { type Viewer } from '@/db/queries/cohort-scope';
import { type MessageFilterOptions, findMessageSelection } from '@/db/queries/message-scope';
import { type PeriodChoice, type PeriodView, periodView } from '@/db/queries/reporting-period';
import { MINIMUM_GROUP_SIZE } from '@/db/queries/suppression';
import type { Database } from '@/db/client';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { hasPermission } from '@/lib/permissions';
import type { MessageFilterQuery } from '../schemas';

export type MessageDataCollectionPage =
  | { status: 'no-company' }
  | {
      status: 'ok';
      period: PeriodView;
      scope: 'all' | 'organisation' | 'companies';
      filters: MessageFilterQuery;
      filterOptions: MessageFilterOptions;
      suppressed: boolean;
      minimumGroupSize: number;
      /** May download the message log ('messages:export-log'). */
      canExport: boolean;
      /** The live feed shows pseudonyms ('patients:list', and aggregates not suppressed). */
      seesPseudonyms: boolean;
    };

/**
 * The message data collection page for a viewer (issue 16 item 2): the reporting period, the filters and
 * what they can be set to, and what the viewer may see and do. The field table is static
 * (collected-fields.ts); the data-quality checks (find-message-data-quality.ts) stream in after the page,
 * and the live feed and the export have their own routes.
 */
export async function getMessageDataCollectionPage(options: {
  database: Database;
  actor: Viewer | null;
  choice?: PeriodChoice;
  filters: MessageFilterQuery;
  now: Date;
}): Promise<MessageDataCollectionPage> {
  const { database, actor, filters } = options;
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  const selection = await findMessageSelection({ database, actor, choice: options.choice, now: options.now });
  if (selection === 'no-company') return { status: 'no-company' };
  const { scope, suppressed, period, filterOptions } = selection;
  const base = {
    status: 'ok' as const,
    period: periodView(period),
    scope: scope.kind,
    filters,
    filterOptions,
    suppressed,
    minimumGroupSize: MINIMUM_GROUP_SIZE,
    canExport: hasPermission(actor.role, 'messages:export-log'),
    seesPseudonyms: !suppressed && hasPermission(actor.role, 'patients:list'),
  };
  return base;
}
