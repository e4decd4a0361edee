export function iso(d: Date): string {
  return d.toISOString();
}

export function plusMs(d: Date, ms: number): Date {
  return new Date(d.getTime() + ms);
}
