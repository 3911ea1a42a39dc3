import fc from 'fast-check';

/**
 * Hostile inputs for the fuzzing tests: values are built as JSON text (objects as lists of
 * entries), so keys such as `__proto__` reach the parser as own keys, the way an attacker sends them.
 */

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const specialStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\ud800',
  '\u202e\u0301\ufeff',
  '😀'.repeat(60),
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9'.repeat(400),
  'true',
  'null',
  '2026-02-30T25:61:00Z',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '../../etc/passwd',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...specialStrings),
  fc.integer().map(String),
  fc.double().map(String),
  // long enough to pass every field's maximum, and (for bodies) the 100 KB limit
  fc.constantFrom(300, 5_000, 120_000).map((n) => 'x'.repeat(n)),
);

const nastyKey = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf') },
);

/** A JSON value as text. */
type Json = string;
const text = (v: unknown): Json => JSON.stringify(v);
/** encodeURIComponent, except that a lone surrogate is sent as its raw (invalid UTF-8) bytes. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

export const nastyJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString.map(text),
    fc.integer().map(text),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(text),
    fc.constantFrom('1e400', '-0', '1E-400', '123456789012345678901234567890'),
    fc.boolean().map(text),
    fc.constant('null'),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(nastyKey, tie('value')), { maxLength: 4 })
      .map((entries) => `{${entries.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** Nesting far deeper than any schema: arrays or objects `depth` levels down. */
const deepJson = fc
  .tuple(fc.constantFrom(50, 2_000, 20_000), fc.boolean())
  .map(([depth, objects]) =>
    objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

/**
 * A valid object changed in one place: a field set to a hostile value, dropped, or a hostile key
 * added (prototype keys included).
 */
function nearValid(valid: Record<string, unknown>): fc.Arbitrary<Json> {
  const keys = Object.keys(valid);
  const entries = (o: Record<string, unknown>) => Object.entries(o).map(([k, v]) => `${text(k)}:${text(v)}`);
  const withField = (key: string, value: Json) => {
    const rest = Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));
    return `{${[...entries(rest), `${text(key)}:${value}`].join(',')}}`;
  };
  const ops: Array<fc.Arbitrary<Json>> = [
    fc.tuple(nastyKey, nastyJson).map(([k, v]) => withField(k, v)),
    fc.constantFrom('__proto__', 'constructor').map((k) => withField(k, '{"polluted":true,"prototype":{"polluted":true}}')),
    nastyJson.map((v) => `[${text(valid)},${v}]`),
  ];
  if (keys.length) {
    ops.push(fc.tuple(fc.constantFrom(...keys), nastyJson).map(([k, v]) => withField(k, v)));
    ops.push(
      fc
        .constantFrom(...keys)
        .map((k) => `{${entries(Object.fromEntries(Object.entries(valid).filter(([x]) => x !== k))).join(',')}}`),
    );
    // numbers as strings, strings as numbers, values in arrays
    ops.push(
      fc.constantFrom(...keys).map((k) => {
        const v = valid[k];
        return withField(
          k,
          typeof v === 'number' ? text(String(v)) : typeof v === 'string' && /^(0|[1-9]\d{0,14})$/.test(v) ? v : text([v]),
        );
      }),
    );
  }
  return fc.oneof(...ops);
}

/** Whatever the test can send as a body: near-valid mostly, random or deep otherwise. */
export const hostileBody = (valid: Record<string, unknown> | undefined): fc.Arbitrary<Json> =>
  valid
    ? fc.oneof(
        { weight: 4, arbitrary: nearValid(valid) },
        { weight: 2, arbitrary: nastyJson },
        { weight: 1, arbitrary: deepJson },
      )
    : fc.oneof({ weight: 3, arbitrary: nastyJson }, { weight: 1, arbitrary: deepJson });

/** A query string of hostile pairs, repeated keys and bracket keys included. */
export const hostileQuery = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.string({ maxLength: 10 }),
        fc.constantFrom(
          '__proto__',
          'constructor[prototype]',
          '__proto__[polluted]',
          'page',
          'sort',
          'q',
          'userId',
          'before',
          'after',
          'token',
          'ids',
          'minPrice',
          'g',
        ),
      ),
      nastyString.filter((s) => s.length < 5_000),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));

/** A path segment: hostile, then URL-encoded as a client would send it. */
export const hostileSegment = nastyString.filter((s) => s.length > 0 && s.length < 5_000).map(encode);
