import type { TOwnAccount, TOwnTrainer } from '@spotter/shared';

/** A logged-in account as GET /api/userData answers it, for component tests. */
export const testUser = (overrides: Partial<TOwnAccount> = {}): TOwnAccount => ({
  _id: 'u1',
  role: 'user',
  firstName: 'Mona',
  lastName: 'Adel',
  email: 'mona@example.com',
  emailVerified: true,
  title: '',
  description: '',
  phone: '01012345678',
  gender: 'female',
  age: 30,
  height: 170,
  weight: 65,
  picture: '',
  city: 'Cairo',
  country: 'Egypt',
  website: '',
  notifications: { account: true, marketing: false },
  createdAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

export const testTrainer = (overrides: Partial<TOwnTrainer> = {}): TOwnTrainer => ({
  ...testUser({ _id: 't1', role: 'trainer', firstName: 'Omar', lastName: 'Farouk' }),
  price: 250,
  rating: 4.5,
  ratingCount: 2,
  profileHidden: false,
  ...overrides,
});
