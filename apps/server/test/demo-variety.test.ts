import { describe, expect, it } from 'vitest';
import { buildDemoAccounts } from '../src/db/seed';
import { avatarSvg, avatarTraits } from '../src/modules/avatars/avatar-svg';

const first24 = buildDemoAccounts().trainers.slice(0, 24);
const VISIBLE = ['face', 'hairStyle', 'hairColor', 'skin', 'facialHair', 'glasses', 'background'] as const;

describe('the first 24 demo trainers look like different people', () => {
  it('every two avatars differ in at least two visible traits, and their SVGs differ', () => {
    const traits = first24.map((tr) => avatarTraits(tr.avatarSeed, tr.gender));
    const svgs = first24.map((tr) => avatarSvg(tr.avatarSeed, tr.gender));
    for (let a = 0; a < traits.length; a++) {
      for (let b = a + 1; b < traits.length; b++) {
        const differing = VISIBLE.filter((k) => traits[a][k] !== traits[b][k]);
        expect(differing.length, `${first24[a].avatarSeed} vs ${first24[b].avatarSeed}`).toBeGreaterThanOrEqual(2);
      }
    }
    expect(new Set(svgs).size).toBe(24);
  });

  it('women are drawn without facial hair; the same seed draws the same person', () => {
    for (const tr of first24.filter((x) => x.gender === 'female'))
      expect(avatarTraits(tr.avatarSeed, 'female').facialHair).toBe('none');
    expect(avatarSvg('trainer-007', 'male')).toBe(avatarSvg('trainer-007', 'male'));
  });

  it('descriptions open with 24 different word pairs and fit the 200-character limit', () => {
    const openings = first24.map((tr) => tr.description!.split(/\s+/).slice(0, 2).join(' ').toLowerCase());
    expect(new Set(openings).size).toBe(24);
    for (const tr of first24) expect(tr.description!.length).toBeLessThanOrEqual(200);
  });
});
