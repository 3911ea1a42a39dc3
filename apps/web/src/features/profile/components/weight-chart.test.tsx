import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WeightChart } from './weight-chart';

const weights = [
  { weight: 82, recordedAt: '2025-01-05T10:00:00.000Z' },
  { weight: 80, recordedAt: '2025-02-05T10:00:00.000Z' },
  { weight: 79, recordedAt: '2025-03-05T10:00:00.000Z' },
];

describe('WeightChart', () => {
  it('draws one point per saved weight and sums them up for screen readers', () => {
    render(<WeightChart weights={weights} />);

    expect(screen.getAllByTestId('weight-point')).toHaveLength(3);
    const chart = screen.getByRole('img');
    expect(chart).toHaveAccessibleName(
      '3 weights saved, from 82 kg on 5 Jan 2025 to 79 kg on 5 Mar 2025; lowest 79 kg, highest 82 kg.',
    );
    const rows = within(screen.getByRole('table', { name: 'Saved weights' })).getAllByRole('row');
    expect(rows).toHaveLength(1 + 3);
    expect(rows[3]).toHaveTextContent('5 Mar 2025');
    expect(rows[3]).toHaveTextContent('79 kg');
  });

  it('puts a lower weight lower on the chart', () => {
    render(<WeightChart weights={weights} />);
    const [first, , last] = screen.getAllByTestId('weight-point');
    expect(Number(last.getAttribute('cy'))).toBeGreaterThan(Number(first.getAttribute('cy')));
    expect(Number(last.getAttribute('cx'))).toBeGreaterThan(Number(first.getAttribute('cx')));
  });

  it('shows a single weight as one point', () => {
    render(<WeightChart weights={weights.slice(0, 1)} />);
    expect(screen.getAllByTestId('weight-point')).toHaveLength(1);
    expect(screen.getByRole('img')).toHaveAccessibleName('One weight saved: 82 kg on 5 Jan 2025.');
  });
});
