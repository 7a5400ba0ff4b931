/**
 * The portal's filters as they stand in the address (`?product=…&company=…&region=…`, with the shared period
 * parameters), so a view is shareable and its CSV exports ask for the same thing. Browser-safe.
 */
import { z } from '@/lib/zod';
import type { PortalFilters } from './portal-tables';

export const portalFilterParams = ['product', 'company', 'region'] as const;

const one = (field: string) =>
  z
    .string({ error: `${field} must be given once, as text` })
    .trim()
    .max(100, { error: `${field} is too long` })
    .optional()
    .transform((value) => (value === undefined || value === '' ? null : value));

export const portalFilterQuerySchema = z.object({ product: one('product'), company: one('company'), region: one('region') });

/** The filters in an address, or none with every problem named (e.g. "product: must be given once, as text"). */
export function parsePortalFilterQuery(query: Record<string, string | string[] | undefined>): {
  filters: PortalFilters;
  problem: string | null;
} {
  const parsed = portalFilterQuerySchema.safeParse({ product: query.product, company: query.company, region: query.region });
  if (parsed.success)
    return { filters: { productId: parsed.data.product, companyId: parsed.data.company, region: parsed.data.region }, problem: null };
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
  return {
    filters: { productId: null, companyId: null, region: null },
    problem: `The filters in the address are not valid (${problems.join('; ')}). Showing every product and region.`,
  };
}

/** The address parameters of the filters (none when unfiltered). */
export function portalFilterQueryOf(filters: PortalFilters): Record<string, string | null> {
  return { product: filters.productId, company: filters.companyId, region: filters.region };
}

/** The tables a CSV can be asked for (the export route refuses any other). */
export const portalTableIdSchema = z
  .string({ error: 'table must be given once, as text' })
  .regex(/^[a-z0-9-]{1,40}$/, { error: 'table must name one of the portal’s tables' });

/** The job that rebuilds the portal's pre-aggregated tables (docs/decisions/039). */
export const portalRefreshJobKind = 'portal.refresh-aggregates';
