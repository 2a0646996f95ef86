import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sourceRoot = import.meta.dirname;

/** What a module loads at run time: its value imports and re-exports, dynamic imports and require calls. */
function runtimeSpecifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Follows relative imports from an entry file; returns the files reached and the packages they load. */
function runtimeGraph(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const pending = [join(sourceRoot, entry)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.includes(file)) continue;
    files.push(file);
    for (const specifier of runtimeSpecifiers(file)) {
      if (specifier.startsWith('.')) pending.push(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  }
  return { files: files.map((file) => relative(sourceRoot, file)), packages };
}

describe('entry points load only what they need', () => {
  it('the root entry loads neither gpt-tokenizer nor ai', () => {
    const { files, packages } = runtimeGraph('index.ts');
    expect([...packages].filter((name) => !name.startsWith('node:')).sort()).toEqual([
      '@patchbay/connector/ports',
      '@patchbay/envelope',
      '@patchbay/helpers',
    ]);
    expect(files).not.toContain('tokens.ts');
    expect(files).not.toContain('ai-sdk.ts');
    for (const file of files) {
      expect([file, readFileSync(join(sourceRoot, file), 'utf8')]).not.toEqual([
        file,
        expect.stringContaining('gpt-tokenizer'),
      ]);
    }
  });

  it('the tokens subpath loads the tokenizer only on first use, through its public entry', () => {
    const { packages } = runtimeGraph('tokens.ts');
    expect([...packages].sort()).toEqual(['@patchbay/envelope', 'node:module']);
    const text = readFileSync(join(sourceRoot, 'tokens.ts'), 'utf8');
    expect(text).toContain("'gpt-tokenizer/encoding/o200k_base'");
    expect(text).not.toMatch(/gpt-tokenizer\/(cjs|esm)\//);
  });

  it('the ai-sdk subpath is the one that loads ai', () => {
    expect(runtimeGraph('ai-sdk.ts').packages).toContain('ai');
  });
});
