/**
 * The header bar shown while the first screen's code loads. index.html holds the same markup,
 * so the page paints before any JavaScript runs and nothing moves when React takes over.
 */
export function AppShell() {
  return (
    <header className="sticky top-0 z-40 border-b border-ink-line bg-ink text-on-ink">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center px-4 sm:px-6">
        <span className="inline-flex items-center gap-2">
          <img src="/favicon.svg" alt="" width="32" height="32" className="size-8 rounded-lg ring-1 ring-ink-line" />
          <span className="font-display text-2xl font-bold tracking-tight text-on-ink">Spotter</span>
        </span>
      </div>
    </header>
  );
}
