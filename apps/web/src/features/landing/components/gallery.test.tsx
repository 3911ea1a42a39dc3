import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { Gallery } from './gallery';

describe('Gallery', () => {
  it('shows ten captioned pictures with alt text and explicit sizes', () => {
    renderWithProviders(<Gallery />);
    const images = screen.getAllByRole('img');
    expect(images).toHaveLength(10);
    for (const image of images) {
      expect(image.getAttribute('alt')).not.toBe('');
      expect(image).toHaveAttribute('width', '400');
      expect(image).toHaveAttribute('height', '300');
    }
    expect(screen.getByText('Warrior pose')).toBeInTheDocument();
  });

  it('zooms a picture in a dialog with previous and next, and Escape returns focus to the tile', async () => {
    const { user } = renderWithProviders(<Gallery />);
    const tile = screen.getByRole('button', { name: 'View Jump rope larger' });

    await user.click(tile);

    const dialog = await screen.findByRole('dialog', { name: 'Jump rope' });
    expect(dialog).toHaveTextContent('9 of 10');

    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('dialog', { name: 'Warrior pose' })).toHaveTextContent('10 of 10');

    await user.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('dialog', { name: 'Overhead press' })).toHaveTextContent('1 of 10');

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'Warrior pose' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous image' }));
    expect(screen.getByRole('dialog', { name: 'Jump rope' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(tile).toHaveFocus();
  });
});
