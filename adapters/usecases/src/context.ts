import type { Store } from '@kerf/store';
import type { EngineApi } from './engine-api.ts';
import type { UrlSigner } from './signed-urls.ts';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What every use case runs against; the service builds one per process. */
export interface UseCaseContext {
  store: Store;
  engine: EngineApi;
  /** Public base URL without a trailing slash, e.g. `http://localhost:8080`. */
  baseUrl: string;
  signer: UrlSigner;
  log: Logger;
  now(): Date;
  /** Wakes this process's job workers after an enqueue (other processes poll). */
  notifyJobs(): void;
  /** Aborted when the service shuts down: long waits (`Prefer: wait`) answer at once. */
  shutdown?: AbortSignal;
}
