import { readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import ts from 'typescript';

/**
 * `no-cycle`, type-only imports included: a file may not import (in any way: values, types,
 * re-exports, dynamic `import()`) a file from which an import path leads back to it.
 * eslint-plugin-import-x's rule of that name skips every type-only import, so a cycle closed by
 * `import type` passes it; docs/decisions/038-platform-plugins.md says why a cycle of types matters
 * too (the two files can no longer be understood, moved or split one without the other).
 *
 * Imports are resolved by the TypeScript compiler with each file's own tsconfig (paths such as
 * `@/*` included); packages (anything resolved into node_modules, the workspace's `@spotter/shared`
 * too) are left out, as no package imports an app.
 */

/** tsconfig path → compiler options; file → the files of this repository it imports. */
const optionsByConfig = new Map();
const importsByFile = new Map();

function compilerOptionsOf(file) {
  const config = ts.findConfigFile(dirname(file), ts.sys.fileExists);
  if (!config) return {};
  let options = optionsByConfig.get(config);
  if (!options) {
    const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    options = parsed?.options ?? {};
    optionsByConfig.set(config, options);
  }
  return options;
}

/** The repository file `specifier` names from `file`, or undefined for a package or nothing. */
function resolveFrom(file, specifier) {
  const { resolvedModule } = ts.resolveModuleName(specifier, file, compilerOptionsOf(file), ts.sys);
  if (!resolvedModule || resolvedModule.isExternalLibraryImport) return undefined;
  const target = resolvedModule.resolvedFileName;
  return target.includes('/node_modules/') ? undefined : target;
}

function importsOf(file) {
  let imports = importsByFile.get(file);
  if (!imports) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // a file that is not there imports nothing
    }
    const found = ts.preProcessFile(text, true, true).importedFiles.map((i) => resolveFrom(file, i.fileName));
    imports = [...new Set(found.filter((f) => f !== undefined))];
    importsByFile.set(file, imports);
  }
  return imports;
}

/** A path of imports from `start` back to `goal` (files), or undefined when there is none. */
function pathBack(start, goal) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const route = queue.shift();
    for (const next of importsOf(route.at(-1))) {
      if (next === goal) return route;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...route, next]);
    }
  }
  return undefined;
}

export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycles, type-only imports counted' },
    schema: [],
    messages: { cycle: 'import cycle, type-only imports counted: {{route}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file || file === '<text>') return {};
    // the file as it is being linted, not as it was on disk
    const own = ts.preProcessFile(context.sourceCode.text, true, true).importedFiles.map((i) => resolveFrom(file, i.fileName));
    importsByFile.set(file, [...new Set(own.filter((f) => f !== undefined))]);
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const target = resolveFrom(file, source.value);
      if (!target || target === file) return;
      const route = pathBack(target, file);
      if (!route) return;
      const names = [file, ...route, file].map((f) => relative(context.cwd, f));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};
