import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { cn } from '@/lib/cn';
import { isPagesSection, pagesNav } from './nav-items';

/**
 * The header's "Pages" entry: a disclosure (button + list of links, the pattern for site
 * navigation) rather than an application menu. It is marked current together with its active
 * entry, and closes on Escape, on a click outside and when focus leaves it.
 */
export function PagesMenu({ linkClassName }: { linkClassName: string }) {
  const { pathname } = useLocation();
  const [isOpen, setIsOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setIsOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen]);

  return (
    <div
      ref={rootRef}
      className="relative"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setIsOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-current={isPagesSection(pathname) ? 'true' : undefined}
        onClick={() => setIsOpen((open) => !open)}
        className={cn(linkClassName, 'gap-1', isOpen && 'text-on-ink')}
      >
        Pages
        <ChevronDown className={cn('size-4 transition-transform duration-150', isOpen && 'rotate-180')} aria-hidden="true" />
      </button>
      <ul
        id={listId}
        hidden={!isOpen}
        className="absolute top-full left-0 z-50 mt-2 min-w-48 rounded-xl border border-line bg-canvas p-1.5 text-ink shadow-card motion-safe:animate-fade-in"
      >
        {pagesNav.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end
              onClick={() => setIsOpen(false)}
              className="flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-ink hover:bg-surface aria-[current=page]:bg-accent-soft aria-[current=page]:font-semibold"
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
