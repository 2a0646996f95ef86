// Every error class in the family of `PatchbayError` declares its own brand. `isInstance` looks an
// error up by the brand of the class it is called on, so a subclass that forgets `static brand`
// inherits its parent's and answers for every parent instance (`CliError.isInstance(new
// PatchbayError(…))` would be true). Nothing else catches it: the compiler is satisfied by the
// inherited static, and a test of the subclass alone passes.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { HttpError, PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { filesUnder, root } from './workspace.js';

interface ErrorClass {
  name: string;
  parent: string;
  file: string;
  brand: string | undefined;
}

const classPattern = /export class (\w+) extends (\w+) \{([\s\S]*?)\n\}/g;
const brandPattern = /static (?:override )?readonly brand: symbol = Symbol\.for\('([^']+)'\)/;

/** The classes declared in shipped sources, with their parent and the brand they declare. */
function declaredClasses(): ErrorClass[] {
  const files = ['packages', 'connectors'].flatMap((dir) =>
    filesUnder(`${root}/${dir}`, /\/src\/.*\.ts$/).filter((file) => !/\.test\.ts$|\.d\.ts$/.test(file)),
  );
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(classPattern)].map((match) => ({
      name: match[1] ?? '',
      parent: match[2] ?? '',
      file: relative(root, file),
      brand: brandPattern.exec(match[3] ?? '')?.[1],
    })),
  );
}

/** The classes that are `PatchbayError` or descend from it, by name through the declared parents. */
function errorFamily(classes: ErrorClass[]): ErrorClass[] {
  const family = new Set(['PatchbayError']);
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of classes) {
      if (family.has(item.parent) && !family.has(item.name)) {
        family.add(item.name);
        grew = true;
      }
    }
  }
  return classes.filter((item) => family.has(item.parent));
}

describe('error classes of the PatchbayError family', () => {
  const classes = declaredClasses();
  const family = errorFamily(classes);

  it('finds the family across the packages (the scan itself works)', () => {
    const names = family.map((item) => item.name);
    for (const known of ['HttpError', 'CliError']) expect(names).toContain(known);
  });

  it('every subclass declares a brand of its own', () => {
    expect(
      family.filter((item) => item.brand === undefined).map((item) => `${item.file}: ${item.name}`),
    ).toEqual([]);
  });

  it('no two classes share a brand', () => {
    const brands = [...family.map((item) => item.brand), String(PatchbayError.brand.description)];
    expect(brands.filter((brand, index) => brands.indexOf(brand) !== index)).toEqual([]);
  });

  it('no error class in shipped code extends Error directly', () => {
    // The console's web page (packages/console/src/app) is bundled for the browser and imports no
    // server package: its fetch error (`ApiError`) is the page's own, never thrown on the server.
    const outside = classes.filter(
      (item) =>
        item.name !== 'PatchbayError' &&
        !item.file.startsWith('packages/console/src/app/') &&
        (item.parent === 'Error' || item.parent === 'TypeError'),
    );
    expect(outside.map((item) => `${item.file}: ${item.name}`)).toEqual([]);
  });

  it('what a missing brand would do: a subclass without one answers for its parent', () => {
    class Forgetful extends PatchbayError {}
    expect(Forgetful.isInstance(new PatchbayError('internal_error', 'base'))).toBe(true);
    // With its own brand, as every class above declares, it does not.
    expect(HttpError.isInstance(new PatchbayError('internal_error', 'base'))).toBe(false);
  });
});
