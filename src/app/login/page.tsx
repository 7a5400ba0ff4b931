import type { Metadata } from 'next';
import { PageUnderConstruction } from '@/features/shell/components/page-under-construction';

export const metadata: Metadata = { title: 'Login' };

export default function LoginPage() {
  return <PageUnderConstruction planId="login" heading="Login" />;
}
