// A hash table of a mesh's directed edges, for finding the twin b -> a of a half-edge a -> b.
/** Directed edge a -> b to a number (the triangle or face that has it; the last one set, as a Map's set
 * would keep):
 * open addressing over typed arrays, where a Map keyed by a * 2^26 + b hashes heap numbers. */
export class HalfEdges {
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly tri: Int32Array;
  private readonly mask: number;
  constructor(capacity: number) {
    let size = 4;
    while (size < 2 * capacity) size *= 2;
    this.from = new Int32Array(size).fill(-1);
    this.to = new Int32Array(size);
    this.tri = new Int32Array(size);
    this.mask = size - 1;
  }
  private slot(a: number, b: number): number {
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
    while (this.from[h] >= 0 && (this.from[h] !== a || this.to[h] !== b)) h = (h + 1) & this.mask;
    return h;
  }
  set(a: number, b: number, t: number): void {
    const h = this.slot(a, b);
    this.from[h] = a; this.to[h] = b; this.tri[h] = t;
  }
  /** the triangle with half-edge a -> b, or -1 */
  get(a: number, b: number): number {
    const h = this.slot(a, b);
    return this.from[h] < 0 ? -1 : this.tri[h];
  }
}
