import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: 'Drug Company Selector' };

export default function DrugCompanySelectorPage() {
  return <PageUnderConstruction planId="drug-company-selector" heading="Drug Company Selector" />;
}
