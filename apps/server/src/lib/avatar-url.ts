/** The address of a generated portrait (modules/avatars draws it); the same seed, the same face. */
export const avatarUrl = (seed: string, gender?: 'male' | 'female') =>
  `/api/avatars/${encodeURIComponent(seed)}.svg${gender ? `?g=${gender[0]}` : ''}`;
