import 'server-only';
/**
 * Who sees aggregates through small-cell suppression, and the smallest group shown (DESIGN.md §1), for
 * every feature that shows figures about groups of patients (shared read layer, docs/decisions/008). The
 * suppression itself is the engine's (src/engine/aggregation/small-cell-suppression.ts).
 */
import type { Role } from '@/db/schema';
import { SMALL_CELL_THRESHOLD } from '@/engine/aggregation/small-cell-suppression';
import { hasPermission } from '@/lib/permissions';

/** Groups of fewer patients than this are never shown to a viewer whose aggregates are suppressed. */
export const MINIMUM_GROUP_SIZE = SMALL_CELL_THRESHOLD;

/**
 * Whether a viewer's aggregates go through small-cell suppression: everyone but those granted
 * 'aggregates:unsuppressed' (care teams, admins); a visitor who is not signed in (null) always.
 */
export function seesSuppressedAggregates(role: Role | null): boolean {
  return role === null || !hasPermission(role, 'aggregates:unsuppressed');
}
