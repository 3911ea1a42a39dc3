import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { GymSchedule } from './gym-schedule';

describe('GymSchedule', () => {
  it('filters the table by day, with the slots of docs/product.md#limits', async () => {
    const { user } = renderWithProviders(<GymSchedule />);

    await user.click(screen.getByRole('tab', { name: 'Monday' }));

    expect(screen.getByRole('tab', { name: 'Monday' })).toHaveAttribute('aria-selected', 'true');
    const table = screen.getByRole('table', { name: 'Classes on Monday' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(11);
    expect(rows[0]).toHaveTextContent('Deadlift06-07AM');
    expect(rows[10]).toHaveTextContent('Legs11PM-12AM');
    expect(within(table).getByRole('rowheader', { name: 'Kettlebell' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Saturday' }));
    expect(screen.getByRole('table', { name: 'Classes on Saturday' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Classes on Monday' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Monday' })).toHaveAttribute('aria-selected', 'false');
  });

  it('moves between days with the arrow keys', async () => {
    const { user } = renderWithProviders(<GymSchedule />);
    await user.click(screen.getByRole('tab', { name: 'Saturday' }));

    await user.keyboard('{ArrowRight}');

    expect(screen.getByRole('tab', { name: 'Monday' })).toHaveFocus();
    expect(screen.getByRole('table', { name: 'Classes on Monday' })).toBeInTheDocument();

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Saturday' })).toHaveFocus();
  });
});
