import { createHash } from 'node:crypto';

/**
 * A friendly generated portrait (DESIGN.md: no stock photos, no network): background, shoulders,
 * head, hair and face picked from small palettes by a hash of the seed, so the same seed always
 * draws the same person.
 */
const BACKGROUNDS = [
  '#dbeafe',
  '#fde68a',
  '#d9f99d',
  '#fbcfe8',
  '#c7d2fe',
  '#fed7aa',
  '#a7f3d0',
  '#e9d5ff',
  '#bae6fd',
  '#fecaca',
];
const SKIN = ['#f5d0b5', '#e8b48f', '#c98e66', '#a86b47', '#7c4a2d', '#f1c7a1'];
const HAIR = ['#1f1a17', '#3b2a20', '#6b4a2e', '#a0522d', '#d6b370', '#2d2d2d'];
const SHIRT = ['#0b1220', '#1e3a8a', '#065f46', '#7c2d12', '#4c1d95', '#be123c', '#0f766e', '#334155'];

export function avatarSvg(seed: string, gender?: 'male' | 'female'): string {
  const h = createHash('sha256').update(seed).digest();
  const pick = <T>(list: T[], i: number) => list[h[i] % list.length];
  const bg = pick(BACKGROUNDS, 0);
  const skin = pick(SKIN, 1);
  const hair = pick(HAIR, 2);
  const shirt = pick(SHIRT, 3);
  const style =
    gender === 'female'
      ? ['long', 'bun', 'bob'][h[4] % 3]
      : gender === 'male'
        ? ['short', 'buzz', 'quiff'][h[4] % 3]
        : ['long', 'bun', 'bob', 'short', 'buzz', 'quiff'][h[4] % 6];
  const beard = gender !== 'female' && h[5] % 4 === 0;
  const smile = h[6] % 2 === 0 ? 'M86 118 Q100 130 114 118' : 'M88 120 Q100 126 112 120';

  const hairBack =
    style === 'long'
      ? `<path d="M56 86 Q54 40 100 36 Q146 40 144 86 L150 150 Q128 160 100 156 Q72 160 50 150 Z" fill="${hair}"/>`
      : style === 'bob'
        ? `<path d="M58 90 Q56 42 100 38 Q144 42 142 90 L144 124 Q122 132 100 130 Q78 132 56 124 Z" fill="${hair}"/>`
        : '';
  const hairFront = {
    long: `<path d="M62 84 Q66 46 100 44 Q134 46 138 84 Q120 62 100 62 Q80 62 62 84 Z" fill="${hair}"/>`,
    bob: `<path d="M62 84 Q66 46 100 44 Q134 46 138 84 Q118 66 92 64 Q72 66 62 84 Z" fill="${hair}"/>`,
    bun: `<circle cx="100" cy="34" r="16" fill="${hair}"/><path d="M62 84 Q64 46 100 44 Q136 46 138 84 Q120 60 100 60 Q80 60 62 84 Z" fill="${hair}"/>`,
    short: `<path d="M60 86 Q58 44 100 42 Q142 44 140 86 Q134 62 100 60 Q70 60 60 86 Z" fill="${hair}"/>`,
    buzz: `<path d="M63 80 Q66 48 100 46 Q134 48 137 80 Q120 64 100 64 Q80 64 63 80 Z" fill="${hair}" opacity="0.85"/>`,
    quiff: `<path d="M60 86 Q56 40 104 36 Q150 42 140 86 Q136 58 112 56 Q118 46 96 50 Q70 56 60 86 Z" fill="${hair}"/>`,
  }[style];

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img">
<rect width="200" height="200" fill="${bg}"/>
${hairBack}
<path d="M40 200 Q44 150 100 146 Q156 150 160 200 Z" fill="${shirt}"/>
<rect x="88" y="118" width="24" height="32" rx="10" fill="${skin}"/>
<ellipse cx="100" cy="90" rx="38" ry="44" fill="${skin}"/>
<ellipse cx="62" cy="94" rx="6" ry="9" fill="${skin}"/><ellipse cx="138" cy="94" rx="6" ry="9" fill="${skin}"/>
${hairFront}
<circle cx="86" cy="94" r="4" fill="#1f1a17"/><circle cx="114" cy="94" r="4" fill="#1f1a17"/>
<path d="M80 84 Q86 80 92 84 M108 84 Q114 80 120 84" stroke="#1f1a17" stroke-width="3" fill="none" stroke-linecap="round" opacity="0.7"/>
${beard ? `<path d="M66 104 Q70 138 100 140 Q130 138 134 104 Q124 126 100 126 Q76 126 66 104 Z" fill="${hair}" opacity="0.9"/>` : ''}
<path d="${smile}" stroke="#7c2d12" stroke-width="3.5" fill="none" stroke-linecap="round"/>
</svg>`;
}
