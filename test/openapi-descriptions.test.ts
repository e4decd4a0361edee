// /v1/docs is a reference (#19.4): every request and response schema of openapi.json, every
// property in them and every parameter has a description, and no description only repeats the
// field's name ("Type." for an error's type says nothing).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; $ref?: string };

const letters = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
/** A unit in the name (length_mm: "Length, mm.") is the one thing such a description may add. */
const UNIT_SUFFIX = /_(mm|mm2|mm3|in|cents|degrees|g_per_cm2)$/;
/** True when the description says no more than the field's name does. */
const restates = (name: string, description: string): boolean => !UNIT_SUFFIX.test(name) && letters(description) === letters(name);

/** Paths (operation + property path) of the properties without a description, or with one that only repeats the name. */
function undescribed(s: unknown, at: string, out: string[]): void {
  if (typeof s !== 'object' || s === null) return;
  const schema = s as Schema;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (typeof prop === 'object' && prop !== null && !prop.$ref && !prop.description?.trim()) out.push(`${at}.${name}`);
    else if (typeof prop === 'object' && prop !== null && prop.description && restates(name, prop.description)) out.push(`${at}.${name} ("${prop.description}")`);
    undescribed(prop, `${at}.${name}`, out);
  }
  undescribed(schema.items, `${at}[]`, out);
  if (typeof schema.additionalProperties === 'object') undescribed(schema.additionalProperties, `${at}{}`, out);
  for (const x of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) undescribed(x, at, out);
}

describe('openapi.json describes everything', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t.close(); });

  it('every body schema, property and parameter has a description', async () => {
    const doc = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };
    const missing: string[] = [];
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      if (!schema.description) missing.push(`#/components/schemas/${name}`);
      undescribed(schema, `#${name}`, missing);
    }
    let properties = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
        const at = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) if (!p.description?.trim() || restates(p.name, p.description)) missing.push(`${at} parameter ${p.name}`);
        const bodies: Array<[string, Schema]> = [
          ...Object.entries(op.requestBody?.content ?? {}).map(([ct, c]) => [`${at} body ${ct}`, (c as { schema: Schema }).schema] as [string, Schema]),
          ...Object.entries(op.responses ?? {}).flatMap(([status, r]) => Object.entries((r as { content?: Record<string, { schema: Schema }> }).content ?? {}).map(([ct, c]) => [`${at} ${status} ${ct}`, c.schema] as [string, Schema])),
        ];
        for (const [where, schema] of bodies) {
          if (!schema) continue;
          if (!schema.$ref && !schema.description?.trim()) missing.push(`${where} (the schema)`);
          const before = missing.length;
          undescribed(schema, where, missing);
          properties += JSON.stringify(schema).split('"properties"').length - 1 + (missing.length - before);
        }
      }
    }
    assert.ok(properties > 100, 'the walk reaches the schemas');
    assert.deepEqual(missing.slice(0, 40), [], `${missing.length} without a description, or with one that only repeats the name`);
  });
});
