// The architecture as code: checkArchitecture(root) reads the workspace packages (the root
// package.json `workspaces` globs), parses every .ts file outside node_modules with the TypeScript
// compiler (so an import in a comment or a string never counts) and returns each broken rule.
// test/architecture.test.ts runs it on the repository and on synthetic trees.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';

export interface Violation { rule: string; file: string; message: string }

type Deps = Record<string, string>;
interface PackageJson { name?: string; workspaces?: string[] | { packages?: string[] }; exports?: unknown; dependencies?: Deps; devDependencies?: Deps; peerDependencies?: Deps; optionalDependencies?: Deps }
/** dir is repository-relative ('' for the root package). */
interface Pkg { name: string; dir: string; json: PackageJson }
interface Import { spec: string; typeOnly: boolean; line: number }
interface Source { file: string; pkg: Pkg; text: string; sf: ts.SourceFile; imports: Import[] }
interface Repo { root: string; rootPkg: Pkg; packages: Pkg[]; sources: Source[]; byName: Map<string, Pkg> }

/**
 * Lowest first; any other adapters/* folder (a transport) is layer 3. adapters/http is what the transports
 * share. common (generic helpers) sits beside the engine: neither imports the other. contract (the public
 * objects' schemas, built on the engine's shapes) sits between the engine and the store, whose records it types.
 */
const LAYERS: Record<string, number> = { 'common': 0, 'engine': 0, 'contract': 0.5, 'adapters/store': 1, 'adapters/usecases': 2, 'adapters/http': 2.5, 'service': 4 };
const layerOf = (p: Pkg): number | undefined => LAYERS[p.dir] ?? (p.dir.startsWith('adapters/') ? 3 : undefined);

export function checkArchitecture(root: string): Violation[] {
  const repo = loadRepo(root);
  return [exportsClosed, exportsBuilt, internalImport, undeclaredDependency, transportInEngine, layerDirection, fileCycles, featureEntry, cliThroughUsecases,
    noHttpStatusInUsecases, cachesInOnePlace, recordsFromContract, fastifyInServiceOnly, noTestBuildersInSrc, architectureDoc].flatMap((rule) => rule(repo));
}

// ---- reading the repository ------------------------------------------------------------------

function walk(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((d) => {
    const rel = dir ? `${dir}/${d.name}` : d.name;
    // dist/ is the build's output (JS + .d.ts) of the sources read here
    if (d.name === 'node_modules' || d.name === 'dist' || d.name.startsWith('.')) return [];
    return d.isDirectory() ? walk(root, rel) : d.isFile() ? [rel] : [];
  });
}

function workspaceDirs(root: string, patterns: string[]): string[] {
  return patterns.flatMap((pattern) => {
    let dirs = [''];
    for (const seg of pattern.replace(/^\.\//, '').replace(/\/$/, '').split('/')) {
      const re = new RegExp(`^${seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '[^/]*')}$`);
      dirs = dirs.flatMap((d) => !seg.includes('*') ? [d ? `${d}/${seg}` : seg]
        : readdirSync(join(root, d), { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'node_modules' && re.test(e.name)).map((e) => (d ? `${d}/${e.name}` : e.name)));
    }
    return dirs.filter((d) => existsSync(join(root, d, 'package.json')));
  }).sort();
}

function loadRepo(root: string): Repo {
  const readJson = (dir: string): PackageJson => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const rootJson = readJson('');
  const rootPkg: Pkg = { name: rootJson.name ?? '', dir: '', json: rootJson };
  const globs = Array.isArray(rootJson.workspaces) ? rootJson.workspaces : rootJson.workspaces?.packages ?? [];
  const packages = workspaceDirs(root, globs).map((dir) => { const json = readJson(dir); return { name: json.name ?? dir, dir, json }; });
  const repo: Repo = { root, rootPkg, packages, sources: [], byName: new Map(packages.map((p) => [p.name, p])) };
  repo.sources = walk(root, '').filter((f) => /\.(ts|tsx|mts|cts)$/.test(f)).map((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    return { file, pkg: ownerOf(repo, file), text, sf, imports: importsOf(sf) };
  });
  return repo;
}

/** The package whose folder holds a repository path: the deepest workspace package, else the root. */
function ownerOf(repo: Repo, path: string): Pkg {
  const holders = repo.packages.filter((p) => path === p.dir || path.startsWith(`${p.dir}/`));
  return holders.sort((a, b) => b.dir.length - a.dir.length)[0] ?? repo.rootPkg;
}

const lineOf = (sf: ts.SourceFile, n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;

function importsOf(sf: ts.SourceFile): Import[] {
  const out: Import[] = [];
  const add = (lit: ts.Node | undefined, typeOnly: boolean): void => {
    if (lit && (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit))) out.push({ spec: lit.text, typeOnly, line: lineOf(sf, lit) });
  };
  const allTypes = (els: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean => els.length > 0 && els.every((e) => e.isTypeOnly);
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) {
      const c = n.importClause;
      add(n.moduleSpecifier, !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && allTypes(c.namedBindings.elements))));
    } else if (ts.isExportDeclaration(n)) {
      add(n.moduleSpecifier, n.isTypeOnly || (!!n.exportClause && ts.isNamedExports(n.exportClause) && allTypes(n.exportClause.elements)));
    } else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) {
      add(n.moduleReference.expression, n.isTypeOnly);
    } else if (ts.isCallExpression(n) && (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) {
      add(n.arguments[0], false);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) {
      add(n.argument.literal, true);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const isRelative = (spec: string): boolean => spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..';
const isBare = (spec: string): boolean => !isRelative(spec) && !spec.startsWith('/') && !spec.startsWith('#') && !/^[a-z]+:/.test(spec) && !isBuiltin(spec);
const packageName = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
/** Repository path a relative import points at, or null when it leaves the repository. */
function resolveRelative(from: string, spec: string): string | null {
  const target = posix.normalize(posix.join(posix.dirname(from), spec));
  return target.startsWith('../') || target === '..' ? null : target;
}
/** The workspace package an import lands in (by name or by relative path), or null for anything else. */
function targetPackage(repo: Repo, s: Source, imp: Import): Pkg | null {
  if (isRelative(imp.spec)) { const t = resolveRelative(s.file, imp.spec); return t === null ? null : ownerOf(repo, t); }
  return repo.byName.get(packageName(imp.spec)) ?? null;
}
const inSrc = (s: Source): boolean => s.pkg.dir !== '' && s.file.startsWith(`${s.pkg.dir}/src/`);
const label = (p: Pkg): string => (p.dir ? `${p.name} (${p.dir}/)` : 'the root package');
const pkgFile = (p: Pkg): string => (p.dir ? `${p.dir}/package.json` : 'package.json');
const hits = (sf: ts.SourceFile, found: (n: ts.Node) => string | null): Array<{ line: number; what: string }> => {
  const out: Array<{ line: number; what: string }> = [];
  const visit = (n: ts.Node): void => { const what = found(n); if (what) out.push({ line: lineOf(sf, n), what }); ts.forEachChild(n, visit); };
  visit(sf);
  return out;
};

// ---- the rules -------------------------------------------------------------------------------

/** Subpath keys of a package's exports ('.' for a string or a conditions object), or null without exports. */
function exportKeys(json: PackageJson): string[] | null {
  const e = json.exports;
  if (e === undefined) return null;
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return ['.'];
  const keys = Object.keys(e);
  return keys.every((k) => k.startsWith('.')) ? keys : ['.'];
}

function exportsClosed(repo: Repo): Violation[] {
  return repo.packages.flatMap((p) => {
    const v = (message: string): Violation => ({ rule: 'exports-closed', file: pkgFile(p), message });
    const keys = exportKeys(p.json);
    if (keys === null) return [v(`${p.name} has no "exports": every file of it can be imported`)];
    return [...keys.filter((k) => k.includes('*')).map((k) => v(`${p.name} exports "${k}": a wildcard opens every file; list the entry points`)),
      ...(keys.length > 4 ? [v(`${p.name} has ${keys.length} entry points (at most 4): ${keys.join(', ')}`)] : [])];
  });
}

/** A tsconfig file's JSON (comments allowed), or null when it is missing or unreadable. */
function readTsconfig(root: string, file: string): { compilerOptions?: { paths?: Record<string, string[]> }; references?: Array<{ path: string }> } | null {
  if (!existsSync(join(root, file))) return null;
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(join(root, file), 'utf8'));
  return error ? null : config;
}

/**
 * Each entry point is built JavaScript with its types (`{ types: ./dist/X.d.ts, default: ./dist/X.js }`,
 * so an installed package works under plain node) built from the source X.ts by the package's
 * tsconfig.build.json, which the root tsconfig.build.json references along with the builds of its
 * @kerf dependencies; the root tsconfig.json maps the entry to X.ts, so development (tsc, tsx) runs
 * the sources without a build.
 */
function exportsBuilt(repo: Repo): Violation[] {
  const out: Violation[] = [];
  const paths = readTsconfig(repo.root, 'tsconfig.json')?.compilerOptions?.paths ?? {};
  const solution = (readTsconfig(repo.root, 'tsconfig.build.json')?.references ?? []).map((r) => posix.normalize(r.path));
  const buildOf = (p: Pkg): string => `${p.dir}/tsconfig.build.json`;
  for (const p of repo.packages) {
    const v = (file: string, message: string): number => out.push({ rule: 'exports-built', file, message });
    const e = p.json.exports;
    for (const [key, target] of Object.entries(e !== null && typeof e === 'object' && !Array.isArray(e) ? e : {})) {
      if (key.includes('*')) continue; // not an entry point: exports-closed reports it
      const t = target as { types?: unknown; default?: unknown } | string;
      const m = typeof t === 'object' && t !== null && typeof t.default === 'string' ? /^\.\/dist\/(.+)\.js$/.exec(t.default) : null;
      if (!m || typeof t !== 'object' || Object.keys(t).join() !== 'types,default' || t.types !== `./dist/${m[1]}.d.ts`) {
        v(pkgFile(p), `export "${key}" must be { "types": "./dist/X.d.ts", "default": "./dist/X.js" } (built from X.ts), got ${JSON.stringify(target)}`);
        continue;
      }
      const source = `./${p.dir}/${m[1]}.ts`;
      if (!existsSync(join(repo.root, source))) v(pkgFile(p), `export "${key}" is built from ${source}, which does not exist`);
      const name = p.name + key.slice(1);
      if (JSON.stringify(paths[name]) !== JSON.stringify([source])) v('tsconfig.json', `paths["${name}"] must be ["${source}"] (development runs the sources), got ${JSON.stringify(paths[name])}`);
    }
    const build = readTsconfig(repo.root, buildOf(p));
    if (!build) { v(buildOf(p), `${p.name} has no tsconfig.build.json: nothing builds its dist/`); continue; }
    if (!solution.includes(buildOf(p))) v('tsconfig.build.json', `does not reference ${buildOf(p)}: npm run build leaves ${p.name} unbuilt`);
    const refs = (build.references ?? []).map((r) => posix.normalize(posix.join(p.dir, r.path)));
    for (const dep of Object.keys(p.json.dependencies ?? {}).map((d) => repo.byName.get(d)).filter((d): d is Pkg => !!d)) {
      if (!refs.includes(buildOf(dep))) v(buildOf(p), `does not reference ${buildOf(dep)}: ${dep.name} must be built first`);
    }
  }
  return out;
}

function internalImport(repo: Repo): Violation[] {
  const out: Violation[] = [];
  for (const s of repo.sources) {
    for (const imp of s.imports) {
      const v = (message: string): number => out.push({ rule: 'internal-import', file: s.file, message: `line ${imp.line}: ${message}` });
      if (isRelative(imp.spec)) {
        const target = resolveRelative(s.file, imp.spec);
        const to = target === null ? null : ownerOf(repo, target);
        // fixtures/ (STEP files, their generator and their truth) is the test data every package's tests share
        if (to === repo.rootPkg && !inSrc(s) && target!.startsWith('fixtures/')) continue;
        if (to && to !== s.pkg) v(`'${imp.spec}' reaches into ${label(to)}; import its public entry by package name`);
        continue;
      }
      const p = repo.byName.get(packageName(imp.spec));
      if (!p || imp.spec === p.name) continue;
      // a wildcard key is not an entry point (exports-closed reports it); only listed subpaths count
      const entries = (exportKeys(p.json) ?? ['.']).filter((k) => !k.includes('*'));
      const sub = `.${imp.spec.slice(p.name.length)}`;
      if (!entries.includes(sub)) v(`'${imp.spec}' is not an entry point of ${p.name} (entries: ${entries.join(', ')})`);
    }
  }
  return out;
}

function undeclaredDependency(repo: Repo): Violation[] {
  const keys = (j: PackageJson, fields: Array<keyof PackageJson>): string[] => fields.flatMap((f) => Object.keys((j[f] as Deps | undefined) ?? {}));
  const prod: Array<keyof PackageJson> = ['dependencies', 'peerDependencies', 'optionalDependencies'];
  const out: Violation[] = [];
  for (const s of repo.sources) {
    const src = inSrc(s);
    const allowed = new Set([s.pkg.name, ...keys(s.pkg.json, prod), ...(src ? [] : [...keys(s.pkg.json, ['devDependencies']), ...keys(repo.rootPkg.json, ['dependencies', 'devDependencies'])])]);
    const seen = new Set<string>();
    for (const imp of s.imports.filter((i) => isBare(i.spec))) {
      const name = packageName(imp.spec);
      if (allowed.has(name) || seen.has(name)) continue;
      seen.add(name);
      const where = src ? `${pkgFile(s.pkg)} dependencies` : `${pkgFile(s.pkg)} (dev)dependencies or the root package.json`;
      out.push({ rule: 'undeclared-dependency', file: s.file, message: `line ${imp.line}: '${name}' is not declared in ${where}` });
    }
  }
  return out;
}

function transportInEngine(repo: Repo): Violation[] {
  return repo.sources.filter((s) => s.file.startsWith('engine/src/')).flatMap((s) => {
    const lines = s.text.split('\n').flatMap((l, i) => (l.includes('/v1') ? [i + 1] : []));
    return lines.length ? [{ rule: 'transport-in-engine', file: s.file, message: `'/v1' (a REST path) on line ${lines.join(', ')}: the engine knows no transport` }] : [];
  });
}

/** Strongly connected groups of more than one node (Tarjan), each as one cycle path a -> b -> a. */
function cycles(nodes: string[], next: (n: string) => string[]): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], groups: string[][] = [];
  const connect = (n: string): void => {
    index.set(n, index.size); low.set(n, index.get(n)!); stack.push(n);
    for (const m of next(n)) {
      if (!index.has(m)) { connect(m); low.set(n, Math.min(low.get(n)!, low.get(m)!)); } else if (stack.includes(m)) low.set(n, Math.min(low.get(n)!, index.get(m)!));
    }
    if (low.get(n) === index.get(n)) { const g: string[] = []; let m: string; do { m = stack.pop()!; g.push(m); } while (m !== n); if (g.length > 1) groups.push(g.sort()); }
  };
  for (const n of nodes) if (!index.has(n)) connect(n);
  return groups.map((g) => { // shortest way from the group's first node back to itself
    const prev = new Map<string, string>([[g[0], '']]), queue = [g[0]];
    for (const n of queue) for (const m of next(n).filter((x) => g.includes(x))) {
      if (m === g[0]) { const path = [g[0]]; for (let x = n; x !== g[0]; x = prev.get(x)!) path.splice(1, 0, x); return [...path, g[0]]; }
      if (!prev.has(m)) { prev.set(m, n); queue.push(m); }
    }
    return g;
  });
}

function layerDirection(repo: Repo): Violation[] {
  const out: Violation[] = [];
  const v = (file: string, message: string): number => out.push({ rule: 'layer-direction', file, message });
  for (const p of repo.packages) if (layerOf(p) === undefined) v(pkgFile(p), `${p.name} has no layer: add ${p.dir} to LAYERS in test/helpers/architecture.ts`);
  const graph = new Map<string, Set<string>>(repo.packages.map((p) => [p.name, new Set()]));
  for (const s of repo.sources.filter((x) => x.pkg !== repo.rootPkg)) {
    const reported = new Set<Pkg>();
    for (const imp of s.imports) {
      const to = targetPackage(repo, s, imp);
      if (!to || to === s.pkg || to === repo.rootPkg) continue;
      graph.get(s.pkg.name)!.add(to.name);
      const [a, b] = [layerOf(s.pkg), layerOf(to)];
      if (a !== undefined && b !== undefined && b >= a && !reported.has(to)) {
        reported.add(to);
        v(s.file, `line ${imp.line}: ${s.pkg.name} (layer ${a}) imports ${to.name} (layer ${b}); only lower layers may be imported`);
      }
    }
  }
  for (const c of cycles([...graph.keys()], (n) => [...graph.get(n)!])) v(pkgFile(repo.byName.get(c[0])!), `package import cycle: ${c.join(' -> ')}`);
  // inside engine/src and the use cases' src: folders (and top-level files) form a graph without cycles
  for (const src of ['engine/src/', 'adapters/usecases/src/']) out.push(...folderCycles(repo, src, 'layer-direction'));
  return out;
}

/** Cycles between the folders (and top-level files) directly under `src` (a repository path ending in '/'). */
function folderCycles(repo: Repo, src: string, rule: string): Violation[] {
  if (!repo.sources.some((s) => s.file.startsWith(src))) return [];
  const node = (file: string): string => file.slice(src.length).split('/')[0];
  const edges = new Map<string, Map<string, string>>();
  for (const s of repo.sources.filter((x) => x.file.startsWith(src))) {
    for (const imp of s.imports.filter((i) => isRelative(i.spec))) {
      const t = resolveRelative(s.file, imp.spec);
      if (!t?.startsWith(src) || node(t) === node(s.file)) continue;
      const from = edges.get(node(s.file)) ?? edges.set(node(s.file), new Map()).get(node(s.file))!;
      if (!from.has(node(t))) from.set(node(t), `${s.file.slice(src.length)}:${imp.line}${imp.typeOnly ? ' (type)' : ''}`);
    }
  }
  return cycles([...edges.keys()].sort(), (n) => [...(edges.get(n)?.keys() ?? [])].sort()).map((c) => {
    const via = c.slice(1).map((m, i) => `${edges.get(c[i])!.get(m)} -> ${m}`).join('; ');
    return { rule, file: `${src}${c[0]}`, message: `${src.slice(0, -1)} folder cycle: ${c.join(' -> ')} (${via})` };
  });
}

/** No file of a package's src/ imports itself back through other files (type-only imports count: they tie the modules as much). */
function fileCycles(repo: Repo): Violation[] {
  const graph = new Map<string, string[]>();
  for (const s of repo.sources.filter(inSrc)) {
    const known = (p: string): string | undefined => [p, p.replace(/\.js$/, '.ts'), `${p}.ts`, `${p}/index.ts`].find((x) => repo.sources.some((o) => o.file === x && o.pkg === s.pkg));
    graph.set(s.file, s.imports.filter((i) => isRelative(i.spec)).flatMap((i) => { const t = resolveRelative(s.file, i.spec); const k = t && known(t); return k ? [k] : []; }));
  }
  return cycles([...graph.keys()].sort(), (n) => graph.get(n) ?? []).map((c) => ({ rule: 'file-cycle', file: c[0], message: `import cycle: ${c.join(' -> ')}` }));
}

/**
 * The use cases are feature folders (designs, dfm, quotes, ...), each entered through its own index:
 * a file outside a folder imports nothing of it but `<folder>/index.ts`.
 */
function featureEntry(repo: Repo): Violation[] {
  const src = 'adapters/usecases/src/';
  const folderOf = (f: string): string | null => { const rest = f.slice(src.length).split('/'); return rest.length > 1 ? rest[0] : null; };
  return repo.sources.filter((s) => s.file.startsWith(src)).flatMap((s) => s.imports.filter((i) => isRelative(i.spec)).flatMap((imp) => {
    const t = resolveRelative(s.file, imp.spec);
    if (!t?.startsWith(src)) return [];
    const folder = folderOf(t);
    if (!folder || folder === folderOf(s.file) || t === `${src}${folder}/index.ts`) return [];
    return [{ rule: 'feature-entry', file: s.file, message: `line ${imp.line}: imports ${t.slice(src.length)}; enter ${folder}/ through ${folder}/index.ts` }];
  }));
}

function cliThroughUsecases(repo: Repo): Violation[] {
  const dir = 'service/src/commands';
  const sourceAt = (path: string): Source | undefined => [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`].map((p) => repo.sources.find((s) => s.file === p)).find(Boolean);
  /** file:line of a value import of the engine, directly or through other commands files. */
  const engineImport = (s: Source, seen: Set<string>): string | null => {
    seen.add(s.file);
    for (const imp of s.imports.filter((i) => !i.typeOnly)) {
      if (packageName(imp.spec) === '@kerf/engine') return `${s.file}:${imp.line}`;
      const t = isRelative(imp.spec) ? resolveRelative(s.file, imp.spec) : null;
      const next = t && posix.dirname(t) === dir ? sourceAt(t) : undefined;
      const via = next && !seen.has(next.file) ? engineImport(next, seen) : null;
      if (via) return `${s.file}:${imp.line} -> ${via}`;
    }
    return null;
  };
  return ['dfm.ts', 'quote.ts'].flatMap((name) => {
    const s = sourceAt(`${dir}/${name}`);
    if (!s) return [];
    const out: Violation[] = [];
    if (!s.imports.some((i) => packageName(i.spec) === '@kerf/usecases')) out.push({ rule: 'cli-through-usecases', file: s.file, message: 'does not import @kerf/usecases: the command must run the use case' });
    const via = engineImport(s, new Set());
    if (via) out.push({ rule: 'cli-through-usecases', file: s.file, message: `value import of @kerf/engine (${via}); only type imports of the engine are allowed here` });
    return out;
  });
}

function noHttpStatusInUsecases(repo: Repo): Violation[] {
  const status = (n: ts.Node | undefined): boolean => !!n && ts.isNumericLiteral(n) && /^[1-5]\d\d$/.test(n.text);
  const header = /^(retry-after|www-authenticate|content-type|content-disposition|content-length|cache-control|x-[a-z0-9]+(-[a-z0-9]+)+)$/i;
  const nameOf = (n: ts.Node | undefined): string | undefined => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n)) ? n.text : n && ts.isPropertyAccessExpression(n) ? n.name.text : undefined);
  const found = (n: ts.Node): string | null => {
    if (ts.isIdentifier(n) && n.text === 'statusCode') return 'statusCode';
    if ((ts.isPropertyAssignment(n) || ts.isPropertyDeclaration(n) || ts.isVariableDeclaration(n)) && nameOf(n.name) === 'status' && status(n.initializer)) return `status ${n.initializer!.getText()}`;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && nameOf(n.left) === 'status' && status(n.right)) return `status = ${n.right.getText()}`;
    if (ts.isNewExpression(n) && status(n.arguments?.[0]) && !/^(Array|\w+Array|ArrayBuffer|Buffer|Date)$/.test(n.expression.getText())) return `new ${n.expression.getText()}(${n.arguments![0].getText()}, ...)`;
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && header.test(n.text)) return `HTTP header '${n.text}'`;
    return null;
  };
  return repo.sources.filter((s) => s.file.startsWith('adapters/usecases/src/')).flatMap((s) => hits(s.sf, found).map((h) => ({
    rule: 'no-http-status-in-usecases', file: s.file, message: `line ${h.line}: ${h.what}: HTTP belongs to the REST adapter`,
  })));
}

/**
 * The use cases' module-level state (a `let`, or a map or set made empty at load: the shape of an
 * in-process cache) lives in the quote and DFM caches' one place, the ready design rows and the
 * compiled validators. A Map or Set filled from a list at load is a constant table, not state.
 */
const MODULE_STATE_FILES = ['adapters/usecases/src/dfm/quote-cache.ts', 'adapters/usecases/src/designs/designs.ts', 'adapters/usecases/src/core/validation.ts'];
function cachesInOnePlace(repo: Repo): Violation[] {
  const empty = /^(BoundedMap|PerStore|WeakMap|WeakSet|Map|Set|WeakRef|AsyncLocalStorage)$/;
  return repo.sources.filter((s) => s.file.startsWith('adapters/usecases/src/') && !MODULE_STATE_FILES.includes(s.file)).flatMap((s) => {
    const out: Violation[] = [];
    for (const st of s.sf.statements) {
      if (!ts.isVariableStatement(st)) continue;
      const isLet = (st.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
      for (const d of st.declarationList.declarations) {
        const init = d.initializer;
        const made = init && ts.isNewExpression(init) && empty.test(init.expression.getText(s.sf).replace(/<.*$/, '')) && (!/^(Map|Set)$/.test(init.expression.getText(s.sf)) || !init.arguments?.length);
        if (isLet || made) out.push({ rule: 'caches-in-one-place', file: s.file, message: `line ${lineOf(s.sf, d)}: module-level ${isLet ? '`let`' : init!.getText(s.sf)}: in-process caches of quotes and DFM live in dfm/quote-cache.ts` });
      }
    }
    return out;
  });
}

/** Where public objects are stored, and the name their stored shape ends in. */
const OBJECT_RECORDS: Array<[string, string]> = [
  ['adapters/store/src/records/', 'Record'],
  ['adapters/usecases/src/dropship/orders.ts', 'Doc'],
  ['adapters/usecases/src/dropship/items.ts', 'Doc'],
  ['adapters/usecases/src/webhooks/endpoint-records.ts', 'Doc'],
];

/**
 * The stored shapes of public objects (a `...Record` type in adapters/store/src/records/: quotes, carts,
 * orders from @kerf/contract; a `...Doc` of dropship orders and items and webhook endpoints, from the use
 * cases' core/objects/) take their public fields from the object's schema: they declare only their own
 * `_` keys, and a public field only as a deliberate override, named in an Omit<> of the same declaration.
 */
function recordsFromContract(repo: Repo): Violation[] {
  return repo.sources.flatMap((s) => {
    const suffix = OBJECT_RECORDS.find(([path]) => s.file.startsWith(path))?.[1];
    if (!suffix) return [];
    const out: Violation[] = [];
    for (const st of s.sf.statements) {
      if (!(ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) || !st.name.text.endsWith(suffix)) continue;
      const omitted = new Set<string>();
      const declared: ts.PropertySignature[] = [];
      const visit = (n: ts.Node): void => {
        if (ts.isTypeReferenceNode(n) && n.typeName.getText(s.sf) === 'Omit' && n.typeArguments?.[1]) {
          const keys = n.typeArguments[1];
          for (const k of ts.isUnionTypeNode(keys) ? keys.types : [keys]) {
            if (ts.isLiteralTypeNode(k) && ts.isStringLiteral(k.literal)) omitted.add(k.literal.text);
          }
        }
        if (ts.isPropertySignature(n)) declared.push(n);
        ts.forEachChild(n, visit);
      };
      visit(st);
      for (const p of declared) {
        const name = p.name.getText(s.sf);
        if (name.startsWith('_') || omitted.has(name)) continue;
        out.push({ rule: 'records-from-contract', file: s.file, message: `line ${lineOf(s.sf, p)}: ${st.name.text} spells \`${name}\` again: take it from the object's schema (name it in an Omit<> to override its type)` });
      }
    }
    return out;
  });
}

function fastifyInServiceOnly(repo: Repo): Violation[] {
  return repo.sources.filter((s) => inSrc(s) && s.pkg.dir.startsWith('adapters/')).flatMap((s) => {
    const fns = new Set<string>(), namespaces = new Set<string>();
    for (const st of s.sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || st.moduleSpecifier.text !== 'fastify' || !st.importClause || st.importClause.isTypeOnly) continue;
      const { name, namedBindings: nb } = st.importClause;
      if (name) fns.add(name.text);
      if (nb && ts.isNamespaceImport(nb)) namespaces.add(nb.name.text);
      if (nb && ts.isNamedImports(nb)) for (const e of nb.elements) if (!e.isTypeOnly && ['fastify', 'default'].includes((e.propertyName ?? e.name).text)) fns.add(e.name.text);
    }
    const found = (n: ts.Node): string | null => {
      if (!ts.isCallExpression(n)) return null;
      const c = n.expression;
      if (ts.isIdentifier(c) && fns.has(c.text)) return `${c.text}(...)`;
      if (ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.expression) && namespaces.has(c.expression.text) && ['fastify', 'default'].includes(c.name.text)) return `${c.getText()}(...)`;
      return null;
    };
    return hits(s.sf, found).map((h) => ({ rule: 'fastify-in-service-only', file: s.file, message: `line ${h.line}: ${h.what} creates a fastify instance; only service/src may` }));
  });
}

function noTestBuildersInSrc(repo: Repo): Violation[] {
  const out: Violation[] = [];
  for (const p of repo.packages.filter((x) => existsSync(join(repo.root, x.dir, 'src')))) {
    for (const file of walk(repo.root, `${p.dir}/src`)) {
      if (/examples|fixtures?|test-ops|testing-builders/.test(file.slice(p.dir.length + 5))) out.push({ rule: 'no-test-builders-in-src', file, message: 'test builders/fixtures live in the package\'s test/ folder, not src/' });
    }
  }
  for (const s of repo.sources.filter(inSrc)) {
    const found = hits(s.sf, (n) => (ts.isIdentifier(n) && (n.text === 'TEST_OPS' || n.text === 'testOps') ? n.text : null));
    if (found.length) out.push({ rule: 'no-test-builders-in-src', file: s.file, message: `${[...new Set(found.map((h) => h.what))].join(', ')} on line ${found.map((h) => h.line).join(', ')}: test operations in production source` });
  }
  return out;
}

function architectureDoc(repo: Repo): Violation[] {
  const file = 'ARCHITECTURE.md';
  const v = (message: string): Violation => ({ rule: 'architecture-doc', file, message });
  if (!existsSync(join(repo.root, file))) return [v('missing: it should describe every package and list the invariants under "## Invariants"')];
  const text = readFileSync(join(repo.root, file), 'utf8');
  const mentions = (dir: string): boolean => new RegExp(`(^|[^\\w/-])${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'm').test(text);
  return [...repo.packages.filter((p) => !mentions(p.dir)).map((p) => v(`does not mention the package folder ${p.dir}`)),
    ...(/^##\s+Invariants\s*$/m.test(text) ? [] : [v('no "## Invariants" heading')])];
}
