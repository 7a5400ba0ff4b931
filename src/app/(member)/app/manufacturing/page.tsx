import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: 'Manufacturing Portal' };

export default function ManufacturingPortalPage() {
  return <PageUnderConstruction planId="manufacturing-portal" heading="Manufacturing Portal" />;
}
