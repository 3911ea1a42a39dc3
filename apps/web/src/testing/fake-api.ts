import { vi } from 'vitest';
import type { TPublicTrainer, TReview, TTrainerProfile } from '@spotter/shared';
import { jsonResponse } from '@/testing/render';

export const makeTrainer = (overrides: Partial<TTrainerProfile> = {}): TTrainerProfile => ({
  _id: 't1',
  firstName: 'Nadia',
  lastName: 'Samir',
  title: 'Strength coach',
  description: 'I help you lift safely.',
  picture: '/api/avatars/trainer-001.svg?g=f',
  city: 'Cairo',
  country: 'Egypt',
  gender: 'female',
  price: 150,
  rating: 4.5,
  ratingCount: 2,
  subscribers: 7,
  packages: [],
  nextFreeAt: null,
  verified: false,
  ...overrides,
});

export const makeReview = (overrides: Partial<TReview> = {}): TReview => ({
  _id: 'r1',
  trainerId: 't1',
  rating: 4,
  comment: 'Great sessions.',
  reviewerFirstName: 'Mariam',
  reviewerLastName: 'Hassan',
  reviewerProfilePhoto: '',
  createdAt: '2025-01-10T10:00:00.000Z',
  updatedAt: '2025-01-10T10:00:00.000Z',
  ...overrides,
});

export const listAnswer = (trainers: TPublicTrainer[], total = trainers.length) => ({
  viewAllTrainers: trainers,
  total,
  totalIsEstimate: false,
  page: 1,
  limit: 24,
});

type Route = (url: URL, init: RequestInit) => Response | undefined;

/**
 * A fake server for fetch: each route answers the requests it knows; anything else is a 404 so
 * a test notices a call it did not expect.
 */
export function stubApi(...routes: Route[]) {
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    for (const route of routes) {
      const answer = route(url, init);
      if (answer) return answer;
    }
    return jsonResponse({ message: 'Not found', statusCode: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Requests the fake server received, as `METHOD /path?query`. */
export const callsOf = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${input}`);
