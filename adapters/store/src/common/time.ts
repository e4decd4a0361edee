export function iso(d: Date): string {
  return d.toISOString();
}
