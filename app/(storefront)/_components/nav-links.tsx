'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { ShopLink } from './shop-link';

type Links = { href: string; title: string }[];

function LinkList({ links, pathname, fullLoads }: { links: Links; pathname: string; fullLoads: boolean }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.href}>
          <ShopLink href={link.href} aria-current={pathname === link.href ? 'page' : undefined} fullLoad={fullLoads}>
            {link.title}
          </ShopLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The main navigation. Wide screens show the links in a row (wrapping, never cut off); on
 * a phone they sit behind a "Menu" disclosure. The disclosure is a <details>, so it opens
 * without JavaScript; once hydrated, following a link closes it (the header stays mounted
 * across client-side navigations). CSS shows one of the two at a time.
 */
export function NavLinks({ links, label, menu, fullLoads }: { links: Links; label: string; menu: string; fullLoads: boolean }) {
  const pathname = usePathname();
  const disclosure = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (disclosure.current) disclosure.current.open = false;
  }, [pathname]);
  return (
    <>
      <nav className="main-nav" aria-label={label}>
        <LinkList links={links} pathname={pathname} fullLoads={fullLoads} />
      </nav>
      <details className="nav-menu" ref={disclosure}>
        <summary>{menu}</summary>
        <nav aria-label={label}>
          <LinkList links={links} pathname={pathname} fullLoads={fullLoads} />
        </nav>
      </details>
    </>
  );
}
