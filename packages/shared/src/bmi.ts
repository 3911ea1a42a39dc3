/** BMI of docs/product.md#bmi: weight / (height in metres)^2, two decimals. */
export type BmiCategory = 'Underweight' | 'Normal weight' | 'Overweight' | 'Obese';

export function computeBmi(heightCm: number, weightKg: number): number | null {
  if (!(heightCm > 0) || !(weightKg > 0)) return null;
  const m = heightCm / 100;
  return Math.round((weightKg / (m * m)) * 100) / 100;
}

export function bmiCategory(bmi: number): BmiCategory {
  if (bmi < 18.5) return 'Underweight';
  if (bmi < 25) return 'Normal weight';
  if (bmi < 30) return 'Overweight';
  return 'Obese';
}

export const bmiMessage = (bmi: number) => `You are ${bmiCategory(bmi)}`;
