import { describe, expect, it } from 'vitest';
import { FIRST_TRAINERS_QUERY, trainersPath } from '@/lib/api/trainer-paths';
import { parseTrainerSearch, toTrainersQuery, writeTrainerSearch } from './trainer-search';

const parse = (search: string) => parseTrainerSearch(new URLSearchParams(search));

describe('the trainer list address', () => {
  it('reads every filter through the shared schema', () => {
    expect(
      parse('q=yoga%20&minPrice=100&maxPrice=300&minRating=4.5&gender=female&city=Giza&sort=price_asc&page=3&favorites=1'),
    ).toEqual({
      q: 'yoga ',
      minPrice: 100,
      maxPrice: 300,
      minRating: 4.5,
      gender: 'female',
      city: 'Giza',
      sort: 'price_asc',
      page: 3,
      favoritesOnly: true,
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
    const search = parse('gender=male&sort=newest&page=2');
    const written = writeTrainerSearch(search);
    expect(written.toString()).toBe('gender=male&sort=newest&page=2');
    expect(parseTrainerSearch(written)).toEqual(search);
  });

  it('asks for what the page load requests early when the address holds no search', () => {
    const query = toTrainersQuery(parse(''), []);
    expect(trainersPath(query)).toBe(trainersPath(FIRST_TRAINERS_QUERY));
    expect(trainersPath(query)).toBe('/trainers?sort=rating&page=1&limit=24');
  });

  it('asks the server for a backwards price range the right way round', () => {
    expect(toTrainersQuery(parse('minPrice=300&maxPrice=100'), [])).toMatchObject({ minPrice: 100, maxPrice: 300 });
  });
});
