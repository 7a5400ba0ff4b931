import Link from 'next/link';
import { routes } from '@/lib/routes';

export const metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <article className="flex flex-col gap-4 py-12">
      <p className="text-sm font-medium text-muted">Error 404</p>
      <h1 className="text-3xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-muted">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link href={routes.home} className="underline">
          Go to the home page
        </Link>
      </p>
    </article>
  );
}
