// Checks real responses against the served /v1/openapi.json: the response schema of the matching
// path template, method and status, compiled with Ajv.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface OpenApiDoc { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>> }

export class OpenApiChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction | null>();
  private readonly templates: Array<{ template: string; re: RegExp }>;
  /** method path status, for the coverage report */
  readonly checked = new Set<string>();

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.templates = Object.keys(doc.paths).map((t) => ({ template: t, re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  }

  static async load(baseUrl: string): Promise<OpenApiChecker> {
    const res = await fetch(`${baseUrl}/v1/openapi.json`);
    if (res.status !== 200) throw new Error(`openapi.json: HTTP ${res.status}`);
    return new OpenApiChecker((await res.json()) as OpenApiDoc);
  }

  /** Throws with the Ajv errors when `body` does not match the documented response. */
  check(method: string, path: string, status: number, body: unknown): void {
    const template = this.templates.find((t) => t.re.test(path))?.template;
    if (!template) throw new Error(`openapi: no path matches ${path}`);
    const op = this.doc.paths[template][method.toLowerCase()];
    if (!op) throw new Error(`openapi: ${method} ${template} is not documented`);
    const response = op.responses?.[String(status)];
    if (!response) throw new Error(`openapi: ${method} ${template} does not document status ${status}`);
    const key = `${method} ${template} ${status}`;
    this.checked.add(key);
    if (!this.cache.has(key)) {
      const schema = response.content?.['application/json']?.schema;
      this.cache.set(key, schema ? this.ajv.compile(schema) : null);
    }
    const validate = this.cache.get(key);
    if (validate && !validate(body)) {
      throw new Error(`openapi: ${key} response does not match: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 800)}`);
    }
  }
}
