import { describe, expect, it } from 'vitest';
import {
  bmiCategory,
  bmiMessage,
  computeBmi,
  MSG,
  PASSWORD_PATTERN,
  PHONE_PATTERN,
  ZLoginRequest,
  ZUserSignUpRequest,
} from '../src';

const valid = {
  firstName: 'Nadia',
  lastName: 'Samir',
  email: 'Nadia@Example.com',
  password: 'Strong12',
  confirmPassword: 'Strong12',
  phone: '01512345678',
  age: 18,
  gender: 'male',
  height: 50,
  weight: 650,
};

const firstError = (input: unknown, field: string) => {
  const r = ZUserSignUpRequest.safeParse(input);
  return r.success ? undefined : r.error.issues.find((i) => i.path[0] === field)?.message;
};

describe('sign-up schema', () => {
  it('accepts the limits themselves and lowercases the e-mail', () => {
    const r = ZUserSignUpRequest.parse(valid);
    expect(r.email).toBe('nadia@example.com');
    expect(ZUserSignUpRequest.safeParse({ ...valid, age: 100, height: 250, weight: 5 }).success).toBe(true);
  });

  it('password: an uppercase letter then 3 to 8 lowercase letters or digits', () => {
    for (const ok of ['Abcd', 'A1b2c3d4e', 'Zzzzzzzzz']) expect(PASSWORD_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['Abc', 'abcd', 'A1b2c3d4e5', 'Ab cd', 'ABcd']) expect(PASSWORD_PATTERN.test(bad), bad).toBe(false);
    expect(firstError({ ...valid, password: 'Abc', confirmPassword: 'Abc' }, 'password')).toBe(MSG.passwordShape);
  });

  it('phone: 11 digits starting 010, 011, 012 or 015', () => {
    for (const ok of ['01012345678', '01112345678', '01212345678', '01512345678']) expect(PHONE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['01312345678', '0101234567', '010123456789', '+201012345678']) expect(PHONE_PATTERN.test(bad)).toBe(false);
  });

  it('reports a missing number as Required and text as the type message', () => {
    expect(firstError({ ...valid, age: undefined }, 'age')).toBe('Required');
    expect(firstError({ ...valid, age: '' }, 'age')).toBe('Required');
    expect(firstError({ ...valid, age: 'x' }, 'age')).toBe('Must provide a number');
    expect(firstError({ ...valid, height: 'x' }, 'height')).toBe('Must be a number');
  });
});

describe('login schema', () => {
  it('checks uppercase first, then length, with the spec messages', () => {
    const r = ZLoginRequest.safeParse({ email: 'a@b.co', password: 'abc' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('Password should start with an uppercase letter');
  });
});

describe('BMI', () => {
  it('170 cm and 65 kg give 22.49, Normal weight', () => {
    const bmi = computeBmi(170, 65)!;
    expect(bmi).toBe(22.49);
    expect(bmiMessage(bmi)).toBe('You are Normal weight');
  });

  it('uses the thresholds 18.5, 25 and 30', () => {
    expect(bmiCategory(18.49)).toBe('Underweight');
    expect(bmiCategory(18.5)).toBe('Normal weight');
    expect(bmiCategory(24.99)).toBe('Normal weight');
    expect(bmiCategory(25)).toBe('Overweight');
    expect(bmiCategory(30)).toBe('Obese');
  });

  it('answers nothing when an input is missing', () => {
    expect(computeBmi(0, 65)).toBeNull();
    expect(computeBmi(170, Number.NaN)).toBeNull();
  });
});
