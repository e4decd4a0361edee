// Durability off the event loop. With synchronous=NORMAL a WAL commit only writes into the page
// cache; the fsync of the WAL file that makes it survive power loss runs here, on libuv's thread
// pool, while the event loop goes on. Writers hear "done" only after it (group-commit.ts). One
// fsync covers every commit made before it started: fsync flushes the file, whichever connection
// or process wrote it. fdatasync, as SQLite's own syncs on Linux: it flushes the data and the size
// a read needs, not the file's times, and every writer of a group waits for it.
import { closeSync, fdatasync, openSync } from 'node:fs';

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
    fdatasync(fd, (err) => {
      this.running = false;
      for (const done of batch) done(err);
      this.start();
    });
  }
}
