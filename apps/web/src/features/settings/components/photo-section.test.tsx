import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { PhotoSection } from './photo-section';
import { testUser } from '@/testing/accounts';

const renderSection = () =>
  renderWithProviders(<PhotoSection role="user" account={testUser()} />, { userEventOptions: { applyAccept: false } });

describe('PhotoSection', () => {
  it('refuses a file that is not a PNG, JPEG or WebP before sending anything', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderSection();

    await user.upload(screen.getByLabelText('Photo file'), new File(['hello'], 'notes.txt', { type: 'text/plain' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Upload a PNG, JPEG or WebP image');
    expect(screen.queryByRole('group', { name: 'Photo crop' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an image over 5 MB', async () => {
    const { user } = renderSection();
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });

    await user.upload(screen.getByLabelText('Photo file'), big);

    expect(await screen.findByRole('alert')).toHaveTextContent('The image is larger than 5 MB');
  });

  it('shows the current photo and a Change photo button', () => {
    renderWithProviders(<PhotoSection role="user" account={testUser({ picture: '/api/images/abc.webp' })} />);
    expect(screen.getByRole('img', { name: 'Your current photo' })).toHaveAttribute('src', '/api/images/abc.webp');
    expect(screen.getByRole('button', { name: 'Change photo' })).toBeEnabled();
  });
});
