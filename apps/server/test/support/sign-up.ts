/** A sign-up body every rule accepts (docs/product.md#sign-up-rules); tests change one field at a time. */
export const SIGN_UP = {
  firstName: 'Nadia',
  lastName: 'Samir',
  email: 'nadia@example.com',
  password: 'Strong12',
  confirmPassword: 'Strong12',
  phone: '01012345678',
  age: 30,
  gender: 'female',
  height: 170,
  weight: 65,
  picture: '',
} as const;
