'use client';

import { Dropdown, buttonVariants } from '@heroui/react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { getAlgorithmPages, getSurveyPages, type PatientEngagementPage, routes } from '@/lib/routes';

function PageDropdown({ label, pages, pathname }: { label: string; pages: PatientEngagementPage[]; pathname: string }) {
  const containsCurrent = pages.some((page) => page.href === pathname);
  return (
    <Dropdown>
      <Dropdown.Trigger
        className={`${buttonVariants({ variant: containsCurrent ? 'secondary' : 'ghost', size: 'sm' })} inline-flex flex-row items-center gap-1 whitespace-nowrap`}
      >
        {label}
        <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 6l4 4 4-4" />
        </svg>
      </Dropdown.Trigger>
      <Dropdown.Popover placement="bottom">
        {/* React Aria's menu brings arrow keys and type-ahead (which resets after 1 s, seed-spec §9). */}
        <Dropdown.Menu aria-label={label} className="max-h-[70vh] overflow-auto">
          {pages.map((page) => {
            const current = page.href === pathname;
            return (
              <Dropdown.Item
                key={page.key}
                id={page.key}
                href={page.href}
                textValue={page.label}
                // React Aria does not pass aria-current through to the menu item's link; set it on the element.
                ref={(element: HTMLElement | null) => {
                  if (current) element?.setAttribute('aria-current', 'page');
                  else element?.removeAttribute('aria-current');
                }}
                className={current ? 'font-semibold text-accent' : undefined}
              >
                {page.label}
              </Dropdown.Item>
            );
          })}
        </Dropdown.Menu>
      </Dropdown.Popover>
    </Dropdown>
  );
}

/** Seed-spec §2: the centre links of the signed-in top bar. */
export function SignedInNavigation({ productName }: { productName: string }) {
  const pathname = usePathname();
  const trialCurrent = pathname === routes.trial;
  return (
    <>
      <Link
        href={routes.trial}
        aria-current={trialCurrent ? 'page' : undefined}
        className={buttonVariants({ variant: trialCurrent ? 'secondary' : 'ghost', size: 'sm' })}
      >
        12-Week Trial
      </Link>
      <PageDropdown label="Patient Algorithm" pages={getAlgorithmPages(productName)} pathname={pathname} />
      <PageDropdown label="Surveys" pages={getSurveyPages()} pathname={pathname} />
    </>
  );
}

/** The same destinations as a plain list, for the mobile menu. */
export function SignedInMobileNavigation({ productName }: { productName: string }) {
  const pathname = usePathname();
  const section = (title: string, pages: PatientEngagementPage[]) => (
    <div>
      <p className="px-2 pb-1 pt-3 text-xs font-medium uppercase tracking-wide text-muted">{title}</p>
      <ul>
        {pages.map((page) => (
          <li key={page.key}>
            <Link
              href={page.href}
              aria-current={page.href === pathname ? 'page' : undefined}
              className="block rounded-lg px-2 py-1.5 hover:bg-surface aria-[current=page]:font-semibold aria-[current=page]:text-accent"
            >
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
  return (
    <nav aria-label="Pages" className="flex flex-col">
      <Link
        href={routes.trial}
        aria-current={pathname === routes.trial ? 'page' : undefined}
        className="rounded-lg px-2 py-1.5 font-medium"
      >
        12-Week Trial
      </Link>
      {section('Patient Algorithm', getAlgorithmPages(productName))}
      {section('Surveys', getSurveyPages())}
    </nav>
  );
}
