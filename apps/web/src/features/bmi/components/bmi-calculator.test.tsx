import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { BmiCalculator } from './bmi-calculator';

async function calculate(height: string, weight: string) {
  const view = renderWithProviders(<BmiCalculator />);
  if (height) await view.user.type(screen.getByLabelText('Height (cm)', { exact: true }), height);
  if (weight) await view.user.type(screen.getByLabelText('Weight (kg)', { exact: true }), weight);
  await view.user.click(screen.getByRole('button', { name: 'Click to Calculate BMI' }));
  return view;
}

describe('BmiCalculator', () => {
  it('shows the BMI to two decimals with the spec message and a gauge', async () => {
    await calculate('170', '65');

    expect(screen.getByText('22.49')).toBeInTheDocument();
    expect(screen.getByText('You are Normal weight')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'BMI scale: 22.49 is in the Normal weight band (18.5 to 25).' })).toBeInTheDocument();
    // 22.49 on a 10–40 scale sits at 41.6%.
    expect(screen.getByTestId('bmi-marker').style.left).toMatch(/^41\.6/);
  });

  it('clears the result when an input is emptied', async () => {
    const { user } = await calculate('170', '65');
    expect(screen.getByText('22.49')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Weight (kg)', { exact: true }));

    expect(screen.queryByText('22.49')).not.toBeInTheDocument();
    expect(screen.queryByText('You are Normal weight')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /BMI scale/ })).not.toBeInTheDocument();
  });

  it('shows no result and says what is missing when an input is empty', async () => {
    await calculate('170', '');

    expect(screen.getByText('Enter your weight in kg')).toBeInTheDocument();
    expect(screen.getByLabelText('Weight (kg)', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Weight (kg)', { exact: true })).toHaveFocus();
    expect(screen.queryByText(/^You are /)).not.toBeInTheDocument();
  });

  it('rejects a height outside 50 to 250 cm', async () => {
    await calculate('17', '65');
    expect(screen.getByText('Enter a height between 50 and 250 cm')).toBeInTheDocument();
    expect(screen.queryByText(/^You are /)).not.toBeInTheDocument();
  });

  it.each([
    ['100', '18.4', '18.40', 'You are Underweight'],
    ['100', '18.5', '18.50', 'You are Normal weight'],
    ['100', '25', '25.00', 'You are Overweight'],
    ['100', '29.99', '29.99', 'You are Overweight'],
    ['100', '30', '30.00', 'You are Obese'],
  ])('height %s cm and weight %s kg give %s: "%s"', async (height, weight, bmi, message) => {
    await calculate(height, weight);
    expect(screen.getByText(bmi)).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
  });
});
