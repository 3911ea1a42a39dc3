import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(__dirname, '../../scripts/subset-fonts.mjs');
const css = readFileSync(join(__dirname, 'fonts.css'), 'utf8');

describe('the subset fonts', () => {
  it('are what scripts/subset-fonts.mjs writes from the installed fontsource packages', () => {
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('serve latin from the subset files and every other script from fontsource', () => {
    const sources = [...css.matchAll(/\/\* ([\w-]+) \*\/[^}]*url\(([^)]+)\)/g)].map(([, name, url]) => [name, url]);
    expect(sources).toContainEqual(['inter-latin-wght-normal', './inter-latin-wght-normal.woff2']);
    expect(sources).toContainEqual(['outfit-latin-wght-normal', './outfit-latin-wght-normal.woff2']);
    expect(sources).toContainEqual([
      'inter-cyrillic-wght-normal',
      '@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2',
    ]);
    expect(sources.length).toBe(9);
  });

  it('never swap the preloaded latin faces in late (nothing moves on a page painted before they arrive)', () => {
    const displays = [...css.matchAll(/\/\* ([\w-]+) \*\/[^}]*font-display: (\w+);/g)].map(([, name, display]) => [
      name,
      display,
    ]);
    expect(displays.filter(([, display]) => display === 'optional').map(([name]) => name)).toEqual([
      'inter-latin-wght-normal',
      'outfit-latin-wght-normal',
    ]);
    expect(displays.filter(([, display]) => display === 'swap')).toHaveLength(7);
  });
});
