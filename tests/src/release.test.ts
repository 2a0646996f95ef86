import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript module without declarations
import { workspacePackages } from '../../scripts/workspace.mjs';
import { root } from './workspace.js';

interface WorkspacePackage {
  dir: string;
  manifest: { name: string; version: string; private?: boolean } & Record<string, unknown>;
}

const packages: WorkspacePackage[] = workspacePackages(root);
const names = new Set(packages.map((pkg) => pkg.manifest.name));
const publicNames = packages.filter((pkg) => !pkg.manifest.private).map((pkg) => pkg.manifest.name);
const changesetDirectory = join(root, '.changeset');
const changesetFiles = readdirSync(changesetDirectory).filter(
  (file) => file.endsWith('.md') && file !== 'README.md',
);

/**
 * Reads a changeset the way @changesets/parse requires: a `---` line, one `"name": bump` line per
 * package, a `---` line, then the summary. Returns the problems found (none for a valid file).
 */
function changesetProblems(text: string): { releases: string[]; problems: string[] } {
  const lines = text.split('\n');
  const problems: string[] = [];
  if (lines[0] !== '---') problems.push('the first line is not ---');
  const end = lines.indexOf('---', 1);
  if (end < 0) return { releases: [], problems: [...problems, 'no closing --- after the package lines'] };
  const releases: string[] = [];
  for (const line of lines.slice(1, end)) {
    const match = /^"(@?[^"]+)": (major|minor|patch)$/.exec(line.trim());
    if (!match) problems.push(`not a "package": bump line: ${line}`);
    else releases.push(match[1] as string);
  }
  if (releases.length === 0) problems.push('names no package');
  if (
    lines
      .slice(end + 1)
      .join('\n')
      .trim() === ''
  )
    problems.push('has no summary');
  return { releases, problems };
}

describe('changesets', () => {
  it('finds the changesets to check', () => {
    expect(changesetFiles.length).toBeGreaterThan(5);
  });

  for (const file of changesetFiles) {
    it(`${file} has valid frontmatter naming workspace packages`, () => {
      const { releases, problems } = changesetProblems(readFileSync(join(changesetDirectory, file), 'utf8'));
      expect(problems).toEqual([]);
      expect(releases.filter((name) => !names.has(name))).toEqual([]);
    });
  }

  it('rejects the broken shape that once stopped the release (a heading where the package line belongs)', () => {
    const broken = '---\n\n## "@patchbay/connector": minor\n\nThe v1 connector contract.\n';
    expect(changesetProblems(broken).problems).not.toEqual([]);
  });
});

/**
 * The release, rehearsed on a temporary copy of the working tree (tracked and new files, as they are
 * on disk, plus any built dist/): `changeset status` and `changeset version` succeed, then every public
 * package packs with its workspace:^ ranges turned into the versions just given.
 * Copying ~600 files, changeset status + version and one `pnpm -r pack`: ~20 s quiet, over a minute
 * with both cores busy; 5 minutes for the test and for each child, so only a hang fails it.
 */
const releaseTimeoutMs = 300_000;

describe('release path', { timeout: releaseTimeoutMs }, () => {
  const copy = mkdtempSync(join(tmpdir(), 'patchbay-release-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const run = (command: string, args: string[], cwd = copy) => {
    const result = spawnSync(command, args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        FORCE_COLOR: '0',
        GIT_AUTHOR_NAME: 'release test',
        GIT_AUTHOR_EMAIL: 'release@test.invalid',
        GIT_COMMITTER_NAME: 'release test',
        GIT_COMMITTER_EMAIL: 'release@test.invalid',
      },
      timeout: releaseTimeoutMs,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it('versions every changeset and packs every public package with real versions', () => {
    const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root);
    expect(listed.status).toBe(0);
    for (const file of listed.output.split('\0').filter(Boolean)) {
      if (!existsSync(join(root, file))) continue; // deleted in the working tree
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(root, file), join(copy, file));
    }
    for (const { dir } of packages) {
      const dist = join(dir, 'dist');
      if (existsSync(dist)) cpSync(dist, join(copy, dir.slice(root.length + 1), 'dist'), { recursive: true });
    }
    // The changelog generator and the changesets CLI resolve from node_modules.
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    // `changeset status` compares with the base branch: the copy is one commit on main.
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['add', '-A'],
      ['commit', '-q', '-m', 'release rehearsal'],
    ]) {
      expect(run('git', args)).toMatchObject({ status: 0 });
    }
    const changeset = join(copy, 'node_modules/.bin/changeset');

    const status = run(changeset, ['status']);
    expect(status.output).not.toMatch(/could not parse|error/i);
    expect(status.status).toBe(0);

    const version = run(changeset, ['version']);
    expect(version.status, version.output).toBe(0);
    expect(
      readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md'),
    ).toEqual([]);
    const versions = new Map<string, string>();
    for (const { dir, manifest } of packages) {
      const versioned = JSON.parse(
        readFileSync(join(copy, dir.slice(root.length + 1), 'package.json'), 'utf8'),
      );
      versions.set(manifest.name, versioned.version);
      if (!manifest.private) {
        expect(versioned.version, manifest.name).not.toBe('0.0.0');
        expect(existsSync(join(copy, dir.slice(root.length + 1), 'CHANGELOG.md')), manifest.name).toBe(true);
      }
    }

    const packs = join(copy, 'packs');
    mkdirSync(packs);
    const filters = packages
      .filter((pkg) => !pkg.manifest.private)
      .flatMap((pkg) => ['--filter', `./${pkg.dir.slice(root.length + 1)}`]);
    const packed = run('pnpm', ['-r', ...filters, 'pack', '--pack-destination', packs]);
    expect(packed.status, packed.output).toBe(0);
    const tarballs = readdirSync(packs).filter((file) => file.endsWith('.tgz'));
    expect(tarballs).toHaveLength(publicNames.length);

    for (const tarball of tarballs) {
      const extracted = spawnSync('tar', ['-xzOf', join(packs, tarball), 'package/package.json'], {
        encoding: 'utf8',
      });
      const manifest = JSON.parse(extracted.stdout);
      expect(manifest.version).toBe(versions.get(manifest.name));
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
        for (const [dependency, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
          expect(range, `${manifest.name} ${field} ${dependency}`).not.toMatch(/^workspace:/);
          if (versions.has(dependency)) {
            expect(range, `${manifest.name} ${field} ${dependency}`).toBe(`^${versions.get(dependency)}`);
          }
        }
      }
    }
  });
});
