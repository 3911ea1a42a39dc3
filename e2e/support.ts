import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

const OUTBOX = `${process.env.E2E_DATA_DIR ?? '.tmp/e2e-data'}/outbox`;

export const uniqueEmail = (prefix: string) =>
  `${prefix}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The newest mail the server wrote to its outbox for this address. */
export async function mailTo(address: string): Promise<{ subject: string; links: string[] }> {
  let found: { subject: string; links: string[] } | undefined;
  await expect
    .poll(() => {
      if (!existsSync(OUTBOX)) return false;
      const files = readdirSync(OUTBOX)
        .filter((f) => f.endsWith('.json'))
        .sort();
      for (const f of files) {
        const mail = JSON.parse(readFileSync(join(OUTBOX, f), 'utf8'));
        if (mail.to === address) found = mail;
      }
      return !!found;
    })
    .toBe(true);
  return found!;
}

/** A valid sign-up body for the API (a trainer's with a price and a city), as the sign-up screen sends it. */
export const signUpData = (
  role: 'user' | 'trainer',
  account: { firstName: string; lastName: string; email: string; password: string },
) => ({
  ...account,
  confirmPassword: account.password,
  phone: '01012345678',
  gender: 'female',
  age: 29,
  height: 168,
  weight: 61,
  ...(role === 'trainer' ? { price: 300, city: 'Cairo' } : {}),
});
