// The JavaScript modules of the harness carry hand-written declarations (`*.d.mts`) beside them. A
// name exported by a module but missing from its declarations cannot be imported from TypeScript;
// a declared name the module no longer exports fails only at run time. Both are caught here.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sourceRoot = dirname(fileURLToPath(import.meta.url));

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** The names a declaration file exports: `export const|function|class|type|interface …` and `export { … }`. */
function declaredNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      exported(statement) &&
      statement.name
    ) {
      names.push(statement.name.text);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && !statement.isTypeOnly) {
      if (ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements)
          if (!element.isTypeOnly) names.push(element.name.text);
    }
  }
  return [...new Set(names)].sort();
}

const declared = filesUnder(sourceRoot)
  .filter((file) => file.endsWith('.d.mts'))
  .map((declarations) => ({
    declarations,
    module: join(dirname(declarations), `${basename(declarations, '.d.mts')}.mjs`),
  }));

describe('hand-written declarations of the JavaScript modules', () => {
  it('exist for the harness modules', () => {
    expect(declared.length).toBeGreaterThan(10);
  });

  it.each(declared.map((entry) => [relative(sourceRoot, entry.module), entry] as const))(
    '%s: its declarations name exactly its runtime exports',
    async (_name, entry) => {
      const runtime = Object.keys(await import(pathToFileURL(entry.module).href))
        .filter((name) => name !== 'default')
        .sort();
      expect(declaredNames(entry.declarations)).toEqual(runtime);
    },
    60_000,
  );
});
