import 'server-only';
import type { Database } from '@/db/client';
import { userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import { type ProfileDocument, profileUpdateSchema } from '../schemas';
import { getProfileDocument } from './get-profile-document';

/** Merges the fields /profile edits into the document and sets updatedUnix. */
export async function updateProfile(options: { database: Database; actor: SessionUser | null; input: unknown }): Promise<ProfileDocument> {
  const actor = requireActor(options.actor);
  const update = parseInput(profileUpdateSchema, options.input, { label: 'The profile update' });
  const changes = Object.fromEntries(Object.entries(update).filter((entry) => entry[1] !== undefined));
  const updatedUnix = Date.now();
  await options.database
    .insert(userProfiles)
    .values({ uid: actor.id, role: actor.role, updatedUnix, ...changes })
    .onConflictDoUpdate({ target: userProfiles.uid, set: { ...changes, updatedUnix } });
  const document = await getProfileDocument({ database: options.database, uid: actor.id });
  if (document === null) throw new AppError('internal', 'The profile could not be read back.');
  return document;
}
