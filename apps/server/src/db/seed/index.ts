import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { accounts } from '../schema';
import { hashPassword } from '../../lib/passwords';

export const DEMO_PASSWORD = 'Demo1234';
export const DEMO_LOGINS = [
  { role: 'user' as const, email: 'user@spotter.test', password: DEMO_PASSWORD },
  { role: 'trainer' as const, email: 'trainer@spotter.test', password: DEMO_PASSWORD },
];

/** Demo data for an empty database; running it again changes nothing. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  if (n > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db
    .insert(accounts)
    .values([
      {
        role: 'user',
        email: 'user@spotter.test',
        passwordHash,
        firstName: 'Mariam',
        lastName: 'Hassan',
        phone: '01012345678',
        gender: 'female',
        age: 29,
        height: 165,
        weight: 62,
        city: 'Cairo',
        country: 'Egypt',
        emailVerifiedAt: new Date(),
      },
      {
        role: 'trainer',
        email: 'trainer@spotter.test',
        passwordHash,
        firstName: 'Omar',
        lastName: 'Farouk',
        phone: '01198765432',
        gender: 'male',
        age: 34,
        height: 182,
        weight: 84,
        title: 'Strength coach',
        description: 'Ten years of barbell coaching. I help beginners squat, press and pull with confidence.',
        city: 'Alexandria',
        country: 'Egypt',
        priceCents: 25000,
        emailVerifiedAt: new Date(),
      },
    ])
    .onConflictDoNothing();
  return true;
}
