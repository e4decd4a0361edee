// Durability off the event loop. With synchronous=NORMAL a WAL commit only writes into the page
// cache; the fsync of the WAL file that makes it survive power loss runs here, on libuv's thread
// pool, while the event loop goes on. Writers hear "done" only after it (group-commit.ts). One
// fsync covers every commit made before it started: fsync flushes the file, whichever connection
// or process wrote it.
import { closeSync, fsync, openSync } from 'node:fs';

export class WalSync {
  private fd: number | null = null;
  private waiting: Array<(err: Error | null) => void> = [];
  private running = false;

  constructor(private readonly walPath: string) {}

  /** Settles once an fsync of the WAL that began after this call has finished. */
  after(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push((err) => (err ? reject(err) : resolve()));
      this.start();
    });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private start(): void {
    if (this.running || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      fd = this.fd ??= openSync(this.walPath, 'r');
    } catch (err) {
      for (const done of batch) done(err as Error);
      return;
    }
    this.running = true;
    fsync(fd, (err) => {
      this.running = false;
      for (const done of batch) done(err);
      this.start();
    });
  }
}
