import 'server-only';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { noUserLoggedIn } from '../schemas';

/** Seed-spec §5: profile updates need a signed-in user; otherwise "No user logged in". */
export function requireActor(actor: SessionUser | null): SessionUser {
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  return actor;
}
