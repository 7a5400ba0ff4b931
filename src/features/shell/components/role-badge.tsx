import Link from 'next/link';
import { routes } from '@/lib/routes';

/**
 * Seed-spec §6 under the brand: a manufacturer's selected companies ("Company: {name}" for exactly one,
 * otherwise "{n} Companies", linking to the selector); a government official's shield and "Government".
 */
export function RoleBadge({ role, selectedDrugCompanies }: { role: string; selectedDrugCompanies: Record<string, string> }) {
  if (role === 'drug-manufacturer') {
    const names = Object.values(selectedDrugCompanies);
    const label = names.length === 1 ? `Company: ${names[0]}` : `${names.length} Companies`;
    return (
      <Link href={routes.drugCompanySelector} className="text-xs text-muted underline-offset-2 hover:underline" data-testid="company-label">
        {label}
      </Link>
    );
  }
  if (role === 'government-official') {
    return (
      <span className="flex items-center gap-1 text-xs text-muted" data-testid="government-label">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="12" height="12" fill="currentColor" data-icon="shield">
          <path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5l8-3z" />
        </svg>
        Government
      </span>
    );
  }
  return null;
}
