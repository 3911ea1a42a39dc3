import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CookieBanner } from './cookie-banner';

const clearCookie = () => {
  document.cookie = 'cookie-accepted=; path=/; max-age=0';
};

describe('CookieBanner', () => {
  afterEach(clearCookie);

  it('hides on Accept and remembers it in the cookie-accepted cookie', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<CookieBanner />);
    expect(screen.getByRole('region', { name: 'Cookie notice' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Accept' }));

    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
    expect(document.cookie).toContain('cookie-accepted=true');

    // A new page view: still hidden.
    unmount();
    render(<CookieBanner />);
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).not.toBeInTheDocument();
  });

  it('stays hidden while the cookie is true', () => {
    document.cookie = 'cookie-accepted=true; path=/';
    render(<CookieBanner />);
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
  });

  it('shows again when the cookie holds another value', () => {
    document.cookie = 'cookie-accepted=false; path=/';
    render(<CookieBanner />);
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
  });
});
