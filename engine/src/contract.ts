// Public shapes of the API (snake_case JSON; docs/api.md "Objects"), as schemas and their types
// (./contract/design.ts), and the engine's errors. Fields may be added, never renamed or dropped:
// existing clients parse them (docs/api.md "Conventions").
export * from './contract/design.ts';
// how these schemas are written, for the layers that build their own objects of them
export * as schemaKit from './contract/schema.ts';

/** Engine error codes; the message says precisely what was wrong. */
export type EngineErrorCode =
  | 'invalid_step'
  | 'empty_model'
  | 'unsupported_geometry'
  | 'analysis_timeout'
  | 'analysis_failed'
  | 'queue_full'
  | 'invalid_configuration';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
  toJSON(): { code: EngineErrorCode; message: string } { return { code: this.code, message: this.message }; }
}
