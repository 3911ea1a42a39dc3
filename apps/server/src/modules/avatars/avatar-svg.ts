import { createHash } from 'node:crypto';

/**
 * A friendly generated portrait (docs/product.md#design: no stock photos, no network): face shape, skin, hair
 * (style and colour), facial hair, glasses, shirt and background picked by a hash of the seed, so
 * the same seed always draws the same person and neighbouring seeds look like different people.
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
  '#e7e5e4',
  '#ccfbf1',
];
const SKIN = ['#f5d0b5', '#e8b48f', '#c98e66', '#a86b47', '#7c4a2d', '#f1c7a1', '#5c3620', '#dca27c'];
const HAIR = ['#1f1a17', '#3b2a20', '#6b4a2e', '#a0522d', '#d6b370', '#2d2d2d', '#9ca3af', '#7f1d1d'];
const SHIRT = ['#0b1220', '#1e3a8a', '#065f46', '#7c2d12', '#4c1d95', '#be123c', '#0f766e', '#334155'];
/** The half-width and half-height of each face shape (a square face adds a jaw). */
const FACES = { oval: [38, 44], round: [42, 40], long: [34, 48], square: [40, 42] } as const;
const FEMALE_HAIR = ['long', 'bun', 'bob', 'ponytail', 'curly'] as const;
const MALE_HAIR = ['short', 'buzz', 'quiff', 'bald', 'curly'] as const;
const FACIAL_HAIR = ['none', 'beard', 'moustache', 'stubble'] as const;
const GLASSES = ['none', 'none', 'round', 'square'] as const;

type AvatarTraits = {
  face: keyof typeof FACES;
  skin: string;
  hairStyle: (typeof FEMALE_HAIR)[number] | (typeof MALE_HAIR)[number];
  hairColor: string;
  facialHair: (typeof FACIAL_HAIR)[number];
  glasses: (typeof GLASSES)[number];
  background: string;
  shirt: string;
  smile: boolean;
};

/** What a seed draws: a pure function of the seed and gender (each trait from its own hash byte). */
export function avatarTraits(seed: string, gender?: 'male' | 'female'): AvatarTraits {
  const h = createHash('sha256').update(seed).digest();
  const pick = <T>(list: readonly T[], i: number) => list[h[i] % list.length];
  const styles = gender === 'female' ? FEMALE_HAIR : gender === 'male' ? MALE_HAIR : [...FEMALE_HAIR, ...MALE_HAIR];
  const hairStyle = pick(styles, 4);
  const hasNoFacialHair = gender === 'female' || (gender === undefined && !(MALE_HAIR as readonly string[]).includes(hairStyle));
  return {
    face: pick(Object.keys(FACES) as Array<keyof typeof FACES>, 7),
    skin: pick(SKIN, 1),
    hairStyle,
    hairColor: pick(HAIR, 2),
    facialHair: hasNoFacialHair ? 'none' : pick(FACIAL_HAIR, 5),
    glasses: pick(GLASSES, 8),
    background: pick(BACKGROUNDS, 0),
    shirt: pick(SHIRT, 3),
    smile: h[6] % 2 === 0,
  };
}

export function avatarSvg(seed: string, gender?: 'male' | 'female'): string {
  const t = avatarTraits(seed, gender);
  const [rx, ry] = FACES[t.face];
  const hair = t.hairColor;
  const top = 90 - ry; // the top of the head
  const smile = t.smile ? 'M86 118 Q100 130 114 118' : 'M88 120 Q100 126 112 120';

  const hairBack = {
    long: `<path d="M56 86 Q54 40 100 36 Q146 40 144 86 L150 150 Q128 160 100 156 Q72 160 50 150 Z" fill="${hair}"/>`,
    bob: `<path d="M58 90 Q56 42 100 38 Q144 42 142 90 L144 124 Q122 132 100 130 Q78 132 56 124 Z" fill="${hair}"/>`,
    ponytail: `<path d="M128 70 Q168 84 150 140 Q146 110 132 92 Z" fill="${hair}"/>`,
    curly: `<g fill="${hair}"><circle cx="66" cy="70" r="16"/><circle cx="134" cy="70" r="16"/><circle cx="62" cy="96" r="13"/><circle cx="138" cy="96" r="13"/></g>`,
  }[t.hairStyle as string];
  const hairFront = {
    long: `<path d="M62 84 Q66 46 100 44 Q134 46 138 84 Q120 62 100 62 Q80 62 62 84 Z" fill="${hair}"/>`,
    bob: `<path d="M62 84 Q66 46 100 44 Q134 46 138 84 Q118 66 92 64 Q72 66 62 84 Z" fill="${hair}"/>`,
    ponytail: `<path d="M62 84 Q64 46 100 44 Q136 46 138 84 Q122 58 100 58 Q78 58 62 84 Z" fill="${hair}"/>`,
    bun: `<circle cx="100" cy="${top - 8}" r="16" fill="${hair}"/><path d="M62 84 Q64 46 100 44 Q136 46 138 84 Q120 60 100 60 Q80 60 62 84 Z" fill="${hair}"/>`,
    short: `<path d="M60 86 Q58 44 100 42 Q142 44 140 86 Q134 62 100 60 Q70 60 60 86 Z" fill="${hair}"/>`,
    buzz: `<path d="M63 80 Q66 48 100 46 Q134 48 137 80 Q120 64 100 64 Q80 64 63 80 Z" fill="${hair}" opacity="0.85"/>`,
    quiff: `<path d="M60 86 Q56 40 104 36 Q150 42 140 86 Q136 58 112 56 Q118 46 96 50 Q70 56 60 86 Z" fill="${hair}"/>`,
    curly: `<g fill="${hair}"><circle cx="78" cy="${top + 6}" r="15"/><circle cx="100" cy="${top}" r="16"/><circle cx="122" cy="${top + 6}" r="15"/><circle cx="66" cy="${top + 22}" r="12"/><circle cx="134" cy="${top + 22}" r="12"/></g>`,
    bald: `<path d="M70 ${top + 18} Q100 ${top + 2} 130 ${top + 18}" stroke="#ffffff" stroke-width="4" fill="none" opacity="0.25" stroke-linecap="round"/>`,
  }[t.hairStyle];
  const facialHair = {
    none: '',
    beard: `<path d="M66 104 Q70 138 100 140 Q130 138 134 104 Q124 126 100 126 Q76 126 66 104 Z" fill="${hair}" opacity="0.9"/>`,
    moustache: `<path d="M84 113 Q100 104 116 113 Q100 110 84 113 Z" fill="${hair}" stroke="${hair}" stroke-width="4" stroke-linejoin="round"/>`,
    stubble: `<path d="M68 106 Q72 134 100 136 Q128 134 132 106 Q122 124 100 124 Q78 124 68 106 Z" fill="${hair}" opacity="0.35"/>`,
  }[t.facialHair];
  const glasses = {
    none: '',
    round: `<g stroke="#111827" stroke-width="3" fill="none"><circle cx="86" cy="94" r="11"/><circle cx="114" cy="94" r="11"/><path d="M97 94 H103"/></g>`,
    square: `<g stroke="#111827" stroke-width="3" fill="none"><rect x="73" y="85" width="24" height="18" rx="3"/><rect x="103" y="85" width="24" height="18" rx="3"/><path d="M97 93 H103"/></g>`,
  }[t.glasses];
  const jaw =
    t.face === 'square' ? `<rect x="${100 - rx}" y="96" width="${rx * 2}" height="${ry - 8}" rx="14" fill="${t.skin}"/>` : '';

  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img">
<rect width="200" height="200" fill="${t.background}"/>
${hairBack ?? ''}
<path d="M40 200 Q44 150 100 146 Q156 150 160 200 Z" fill="${t.shirt}"/>
<rect x="88" y="118" width="24" height="32" rx="10" fill="${t.skin}"/>
<ellipse cx="100" cy="90" rx="${rx}" ry="${ry}" fill="${t.skin}"/>${jaw}
<ellipse cx="${100 - rx}" cy="94" rx="6" ry="9" fill="${t.skin}"/><ellipse cx="${100 + rx}" cy="94" rx="6" ry="9" fill="${t.skin}"/>
${hairFront}
<circle cx="86" cy="94" r="4" fill="#1f1a17"/><circle cx="114" cy="94" r="4" fill="#1f1a17"/>
<path d="M80 84 Q86 80 92 84 M108 84 Q114 80 120 84" stroke="#1f1a17" stroke-width="3" fill="none" stroke-linecap="round" opacity="0.7"/>
${facialHair}
${glasses}
<path d="${smile}" stroke="#7c2d12" stroke-width="3.5" fill="none" stroke-linecap="round"/>
</svg>`;
}
