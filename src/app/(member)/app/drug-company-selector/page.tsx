import type { Metadata } from 'next';
import { CompanySelector } from '@/features/identity/components/company-selector';

export const metadata: Metadata = { title: 'Drug Company Selector' };

export default function DrugCompanySelectorPage() {
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Drug Company Selector</h1>
      <CompanySelector />
    </article>
  );
}
