// Business-day arithmetic on UTC calendar dates (weekends skipped; holidays are not modelled).

/** The calendar date (YYYY-MM-DD, UTC) `days` business days after the day of `fromIso`. */
export function addBusinessDays(fromIso: string, days: number): string {
  const d = new Date(fromIso);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a timestamp: ${fromIso}`);
  const cur = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  let left = days;
  while (left > 0) {
    cur.setUTCDate(cur.getUTCDate() + 1);
    const wd = cur.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return cur.toISOString().slice(0, 10);
}
