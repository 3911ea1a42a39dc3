import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZTrainerListSearch } from '@spotter/shared';
import { FIRST_TRAINERS_QUERY, trainersPath } from '@/lib/api/trainer-paths';
import { parseTrainerSearch, toTrainersQuery, writeTrainerSearch } from './trainer-search';

const parse = (search: string) => parseTrainerSearch(new URLSearchParams(search));

const KEYS = [
  'q',
  'minPrice',
  'maxPrice',
  'minRating',
  'gender',
  'city',
  'available',
  'availableOn',
  'sort',
  'page',
  'favorites',
  'verified',
] as const;
/** What the shared schema makes of an address (as parseTrainerSearch did before it was written out). */
const bySchema = (params: URLSearchParams) => {
  const { favorites, ...search } = ZTrainerListSearch.parse(Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? undefined])));
  return { ...search, favoritesOnly: favorites };
};

describe('the trainer list address', () => {
  it('reads every address the way the shared schema ZTrainerListSearch does', () => {
    const numbers = [
      '',
      ' ',
      '0',
      '-0',
      '1',
      '2',
      '3',
      '3.5',
      '4',
      '4.50',
      '4.5',
      '5',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      ' 7 ',
      'abc',
      'NaN',
      'Infinity',
      '4abc',
      '4.5x',
      '0x4',
      '45e-1',
      ' 4.5 ',
      '10abc',
      '1_0',
      '\u00a04\u00a0',
    ];
    const values: Record<string, string[]> = {
      q: ['', ' ', 'yoga', ' Yoga  coach ', 'x'.repeat(101), 'x'.repeat(99) + '🙂', 'é🙂'],
      minPrice: [...numbers, '100000', '100001', '99999.5'],
      maxPrice: [...numbers, '100000', '100001'],
      minRating: numbers,
      gender: ['', 'male', 'female', 'Male', 'other', ' male', 'male '],
      city: ['', 'Cairo', 'cairo', 'Port Said', 'Sharm El Sheikh', 'Atlantis', ' Cairo'],
      available: ['', 'today', 'week', 'mornings', 'evenings', 'Today', ' week', 'weekend', 'morning'],
      availableOn: [
        '',
        '2030-01-07',
        '2030-02-29',
        '2032-02-29',
        '2030-13-01',
        '2030-1-7',
        ' 2030-01-07',
        '2030-01-07T00:00',
        '20300107',
        'today',
        '+02030-01-07',
      ],
      sort: ['', 'rating', 'price_asc', 'price_desc', 'newest', 'soonest', 'cheapest', 'RATING', ' newest', 'newest ', 'Soonest'],
      page: [...numbers, '100000', '100001'],
      favorites: ['', '0', '1', 'true', ' 1'],
      verified: ['', '0', '1', 'true', ' 1', '1 '],
    };
    let checked = 0;
    for (const [key, list] of Object.entries(values)) {
      for (const value of list) {
        for (const params of [
          new URLSearchParams([[key, value]]),
          new URLSearchParams([
            [key, value],
            [key, '2'],
          ]),
        ]) {
          expect(parseTrainerSearch(params), `${params}`).toEqual(bySchema(params));
          checked++;
        }
      }
    }
    const all = new URLSearchParams(
      'q=run&minPrice=10&maxPrice=5&minRating=4&gender=male&city=Luxor&available=evenings&availableOn=2030-01-07&sort=soonest&page=9&favorites=1&verified=1',
    );
    expect(parseTrainerSearch(all)).toEqual(bySchema(all));
    expect(parseTrainerSearch(new URLSearchParams())).toEqual(bySchema(new URLSearchParams()));
    expect(checked).toBeGreaterThan(250);
  });

  it('agrees with the shared schema on random addresses too', () => {
    // numbers, near-numbers and the choices' own characters, so most values are close calls
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789.-+eExXbo_ \tInfaN'.split('')), maxLength: 8 }),
      fc.constantFrom(
        'male',
        'female',
        'Cairo',
        'Port Said',
        'rating',
        'newest',
        'soonest',
        'price_asc',
        'today',
        'week',
        'mornings',
        'evenings',
        '2030-01-07',
        '2030-02-30',
        '1',
        '4.5',
        '100000',
      ),
      fc.string({ maxLength: 120 }),
    );
    const address = fc.array(fc.tuple(fc.constantFrom(...KEYS), text), { maxLength: 12 });
    fc.assert(
      fc.property(address, (pairs) => {
        const params = new URLSearchParams(pairs);
        expect(parseTrainerSearch(params)).toEqual(bySchema(params));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads every filter', () => {
    expect(
      parse(
        'q=yoga%20&minPrice=100&maxPrice=300&minRating=4.5&gender=female&city=Giza&available=mornings&availableOn=2030-01-07&sort=soonest&page=3&favorites=1&verified=1',
      ),
    ).toEqual({
      q: 'yoga ',
      minPrice: 100,
      maxPrice: 300,
      minRating: 4.5,
      gender: 'female',
      city: 'Giza',
      available: 'mornings',
      availableOn: '2030-01-07',
      sort: 'soonest',
      page: 3,
      favoritesOnly: true,
      verified: true,
    });
  });

  it('falls back to the default of each value it cannot use, never failing', () => {
    const search = parse('q=&minPrice=abc&maxPrice=-5&minRating=2&gender=robot&city=Atlantis&sort=cheapest&page=0&favorites=yes');
    expect(search).toMatchObject({ q: '', sort: 'rating', page: 1, favoritesOnly: false });
    for (const key of ['minPrice', 'maxPrice', 'minRating', 'gender', 'city'] as const) expect(search[key]).toBeUndefined();
    expect(parse('minPrice=').minPrice).toBeUndefined();
    expect(parse('page=100001').page).toBe(1);
    expect(parse(`q=${'x'.repeat(150)}`).q).toHaveLength(100);
  });

  it('writes back only what differs from the defaults, and reads it the same again', () => {
    const search = parse('gender=male&available=week&availableOn=2030-01-07&sort=soonest&page=2');
    const written = writeTrainerSearch(search);
    expect(written.toString()).toBe('gender=male&available=week&availableOn=2030-01-07&sort=soonest&page=2');
    expect(parseTrainerSearch(written)).toEqual(search);
  });

  it('asks for what the page load requests early when the address holds no search', () => {
    const query = toTrainersQuery(parse(''), []);
    expect(trainersPath(query)).toBe(trainersPath(FIRST_TRAINERS_QUERY));
    expect(trainersPath(query)).toBe('/trainers?sort=rating&page=1&limit=24');
  });

  it('keeps "verified coaches only" in the address as verified=1 and asks the server for verified=true', () => {
    const search = parse('verified=1');
    expect(search.verified).toBe(true);
    expect(writeTrainerSearch(search).toString()).toBe('verified=1');
    expect(trainersPath(toTrainersQuery(search, []))).toBe('/trainers?verified=true&sort=rating&page=1&limit=24');
    expect(trainersPath(toTrainersQuery(parse('verified=0'), []))).toBe('/trainers?sort=rating&page=1&limit=24');
  });

  it('asks the server for a backwards price range the right way round', () => {
    expect(toTrainersQuery(parse('minPrice=300&maxPrice=100'), [])).toMatchObject({ minPrice: 100, maxPrice: 300 });
  });
});
