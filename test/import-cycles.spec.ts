import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * No import circles between the project's own files. A circle makes the load order decide what a module sees
 * (a class imported from a half-loaded module is `undefined`, which Nest reports as an unknown dependency at
 * best), and it hides which of two concepts depends on the other. The graph is built with the TypeScript
 * compiler API from every .ts file under apps/, libs/, packages/ and bench/ (specs included), resolving
 * relative imports and tsconfig.json's path aliases (@app/*, @apps/worker, @image-ar/*) with the compiler's
 * own module resolution, so it sees what `tsc` sees.
 *
 * Every kind of edge counts: `import`, `export … from`, `import x = require()`, `require()`, `import()` and
 * `import('…').T` types, and `import type` edges too. A type-only edge vanishes from the JavaScript, so it
 * can't cause a load-order bug, but the two files still know each other: the circle is the same tangle of
 * concepts, and the usual untangling (the shared type moves to the file that owns it) costs nothing (three of
 * the four circles this check was written for closed through `import type` only). The report marks type-only
 * edges so the cheap cuts are easy to see.
 */
const ROOT = join(__dirname, '..');
const FOLDERS = ['apps', 'libs', 'packages', 'bench'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'results']);

/**
 * Circles known and being untangled elsewhere, each as the set of files that import one another (root-relative).
 * A listed circle that is gone fails the test too, so the list only shrinks: the lead empties it.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

type Edge = { to: string; typeOnly: boolean };

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...tsFiles(join(dir, entry.name)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath).options;
}

/** The module specifiers a file names, each with whether only types come through it. */
function specifiers(source: ts.SourceFile): { name: string; typeOnly: boolean }[] {
  const found: { name: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!bindings &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      found.push({ name: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (!!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly));
      found.push({ name: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ name: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) found.push({ name: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ name: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** file -> the project files it imports (root-relative, '/'-separated). */
function importGraph(): Map<string, Edge[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(ROOT, (f) => f, options);
  const rel = (file: string) => relative(ROOT, file).split(sep).join('/');
  const graph = new Map<string, Edge[]>();
  const files = FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder)));
  for (const file of files) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.ES2022, true);
    const edges = new Map<string, Edge>();
    for (const { name, typeOnly } of specifiers(source)) {
      const resolved = ts.resolveModuleName(name, file, options, host, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = rel(resolved.resolvedFileName);
      if (target.startsWith('..') || target.includes('node_modules/') || !FOLDERS.includes(target.split('/')[0])) continue;
      // A file reached both ways is a value edge.
      const known = edges.get(target);
      edges.set(target, { to: target, typeOnly: typeOnly && (known?.typeOnly ?? true) });
    }
    graph.set(rel(file), [...edges.values()]);
  }
  return graph;
}

/** Strongly connected components with a circle in them (Tarjan): each is one tangle of files. */
function tangles(graph: Map<string, Edge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfImport = (graph.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfImport) result.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return result.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One tangle, readably: a shortest circle through its first file, then every import inside it. */
function explain(graph: Map<string, Edge[]>, component: string[]): string {
  const members = new Set(component);
  const inside = (v: string) => (graph.get(v) ?? []).filter((e) => members.has(e.to));
  const start = component[0];
  const parent = new Map<string, string>();
  const queue = [start];
  let closing: string | undefined;
  while (queue.length && !closing) {
    const v = queue.shift()!;
    for (const { to } of inside(v)) {
      if (to === start) {
        closing = v;
        break;
      }
      if (!parent.has(to)) {
        parent.set(to, v);
        queue.push(to);
      }
    }
  }
  const path = [start];
  for (let v = closing; v && v !== start; v = parent.get(v)) path.splice(1, 0, v);
  path.push(start);
  const edges = component.flatMap((v) => inside(v).map((e) => `    ${v} -> ${e.to}${e.typeOnly ? ' (type only)' : ''}`));
  return [`  circle: ${path.join(' -> ')}`, `  imports inside it:`, ...edges].join('\n');
}

describe('import graph', () => {
  const graph = importGraph();
  const found = tangles(graph);
  const key = (files: readonly string[]) => [...files].sort().join('\n');

  it('resolves the path aliases and relative imports (the check would pass vacuously otherwise)', () => {
    const edges = (from: string) => (graph.get(from) ?? []).map((e) => e.to);
    expect(graph.size).toBeGreaterThan(300);
    expect(edges('apps/api/src/api.module.ts')).toEqual(
      expect.arrayContaining(['libs/config/src/index.ts', 'apps/api/src/http/http.module.ts']),
    );
    expect([...graph.values()].flat().filter((e) => e.to.startsWith('packages/')).length).toBeGreaterThan(0);
  });

  it('has no circles between its own files', () => {
    const known = new Set(KNOWN_CYCLES.map(key));
    const unexpected = found.filter((c) => !known.has(key(c)));
    const message = unexpected.map((c, i) => `Circle ${i + 1} (${c.length} files):\n${explain(graph, c)}`).join('\n\n');
    expect(message).toBe('');
  });

  it('lists only known circles that are still there (remove the ones that are gone from KNOWN_CYCLES)', () => {
    const present = new Set(found.map(key));
    expect(KNOWN_CYCLES.filter((c) => !present.has(key(c)))).toEqual([]);
  });
});
