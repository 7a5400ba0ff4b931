import 'server-only';
import type { Database } from '@/db/client';
import { userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { type ProfileDocument, profileUpdateSchema } from '../schemas';
import { getProfileDocument } from './get-profile-document';
import { requireActor } from './require-actor';

/** Merges the fields /profile edits into the document and sets updatedUnix. */
export async function updateProfile(options: { database: Database; actor: SessionUser | null; input: unknown }): Promise<ProfileDocument> {
  const actor = requireActor(options.actor);
  const parsed = profileUpdateSchema.safeParse(options.input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : String(issue.path[0] ?? 'input');
      fieldErrors[field] ??= issue.code === 'unrecognized_keys' ? `${field} cannot be changed here.` : issue.message;
    }
    const [field, message] = Object.entries(fieldErrors)[0] ?? ['input', 'The profile update is not valid.'];
    throw new AppError('validation', message.includes(field) ? message : `${field}: ${message}`, { fieldErrors });
  }
  const changes = Object.fromEntries(Object.entries(parsed.data).filter((entry) => entry[1] !== undefined));
  const updatedUnix = Date.now();
  await options.database
    .insert(userProfiles)
    .values({ uid: actor.id, role: actor.role, updatedUnix, ...changes })
    .onConflictDoUpdate({ target: userProfiles.uid, set: { ...changes, updatedUnix } });
  const document = await getProfileDocument({ database: options.database, uid: actor.id });
  if (document === null) throw new AppError('internal', 'The profile could not be read back.');
  return document;
}
