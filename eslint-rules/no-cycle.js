/**
 * import cycles, type-only imports included. import-x/no-cycle skips `import type` (it has no option to
 * count them), but a cycle of types still ties two modules together: neither can move or be read without
 * the other. This rule follows every relative import a file makes (value, type, re-export, dynamic
 * `import()`, `import('…').T`) through the files on disk and reports an import from which the importing
 * file can be reached again. Package imports are outside the graph.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** A relative specifier's file, or null (a package, or nothing there). */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  for (const p of candidates) {
    try {
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not this candidate
    }
  }
  return null;
}

/** Each file's resolved imports, read once per version of the file (the editor keeps one process). */
const importsCache = new Map();

function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = importsCache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.imports;
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(importedFiles.map((f) => resolve(file, f.fileName)).filter(Boolean))];
  importsCache.set(file, { mtimeMs, imports });
  return imports;
}

/**
 * The files from `start` to `goal` along imports (both ends included), or null. `searched` holds the files
 * an earlier search from the same importer reached without finding it, so they are not walked again.
 */
function route(start, goal, searched) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === goal) {
        const files = [goal, file];
        for (let p = parent.get(file); p; p = parent.get(p)) files.push(p);
        return files.reverse();
      }
      if (parent.has(next) || searched.has(next)) continue;
      parent.set(next, file);
      queue.push(next);
    }
  }
  for (const file of parent.keys()) searched.add(file);
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle (type-only imports count): {{route}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const root = context.cwd;
    const searched = new Set();
    const check = (node, specifier) => {
      if (typeof specifier !== 'string') return;
      const target = resolve(file, specifier);
      if (!target || target === file) return;
      const found = route(target, file, searched);
      if (found) context.report({ node, messageId: 'cycle', data: { route: [file, ...found].map((f) => path.relative(root, f)).join(' → ') } });
    };
    return {
      ImportDeclaration: (n) => check(n.source, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
      TSImportType: (n) => n.argument?.type === 'TSLiteralType' && check(n.argument, n.argument.literal.value),
    };
  },
};
