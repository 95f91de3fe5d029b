'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

export function NavLinks({ links, label }: { links: { href: string; title: string }[]; label: string }) {
  const pathname = usePathname();
  return (
    <nav className="main-nav" aria-label={label}>
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={pathname === link.href ? 'page' : undefined}>
              {link.title}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
