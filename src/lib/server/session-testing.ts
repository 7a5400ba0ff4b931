import 'server-only';
/**
 * Test support: a signed-in user as use cases receive one (the session's user), for tests that call use cases
 * directly. The e-mail is made from the id, so each stands for one account.
 */
import type { Role } from '@/lib/domain/roles';
import type { SessionUser } from './session';

export function testSessionUser(id: string, role: Role): SessionUser {
  return { id, email: `${id}@x.test`, name: id, role, phoneNumber: null, twoFactorEnabled: false };
}
