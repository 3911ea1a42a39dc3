/** The small 'Weekly' mark of a session of a standing weekly series (`seriesId`), on the user's cards and the trainer's schedule. */
export function WeeklyBadge() {
  return (
    <span className="inline-flex items-center rounded-full border border-line bg-surface px-2 py-0.5 text-xs font-semibold text-muted">
      Weekly
      <span className="sr-only"> session, one of a series</span>
    </span>
  );
}
