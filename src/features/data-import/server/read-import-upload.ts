import 'server-only';
import type { NextRequest } from 'next/server';
import { getDatabase, type Database } from '@/db/client';
import { readBoundedText } from '@/lib/server/read-bounded-body';
import { type RequestContext, requestContextOf } from '@/lib/server/request-context';
import { requireSameOrigin } from '@/lib/server/require-same-origin';
import { getSessionUser, type SessionUser } from '@/lib/server/session';
import { importTooLargeHint, maximumImportBytes } from '../schemas';
import { authoriseImport } from './authorise-import';

export type ImportUpload = {
  database: Database;
  actor: SessionUser;
  context: RequestContext;
  text: string;
};

/**
 * The request boundary every upload route shares (decision 009): same origin, a signed-in user allowed to import
 * (refused and audited BEFORE up to 50 MB is read from someone who may not import), then the body, bounded and
 * of one of the accepted media types.
 */
export async function readImportUpload(options: {
  request: NextRequest;
  action: string;
  contentTypes: readonly string[];
}): Promise<ImportUpload> {
  const { request } = options;
  requireSameOrigin(request);
  const context = requestContextOf(request.headers);
  const database = getDatabase();
  const actor = await authoriseImport({ database, actor: await getSessionUser(request.headers), action: options.action, request: context });
  const text = await readBoundedText(request, {
    limitBytes: maximumImportBytes,
    contentTypes: options.contentTypes,
    tooLargeHint: importTooLargeHint,
  });
  return { database, actor, context, text };
}
