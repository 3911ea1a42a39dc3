import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('CookieBanner and the focus', () => {
  afterEach(clearCookie);

  const box = (top: number, bottom: number) =>
    ({ top, bottom, left: 0, right: 400, height: bottom - top, width: 400 }) as DOMRect;

  it('scrolls a control that gets the focus under the notice into view, and leaves others alone', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Above</button>
        <button type="button">Under</button>
        <CookieBanner />
      </>,
    );
    const notice = screen.getByRole('region', { name: 'Cookie notice' });
    notice.getBoundingClientRect = () => box(600, 700);
    const above = screen.getByRole('button', { name: 'Above' });
    const under = screen.getByRole('button', { name: 'Under' });
    above.getBoundingClientRect = () => box(100, 140);
    under.getBoundingClientRect = () => box(640, 680);
    // jsdom has no :focus-visible; a browser matches it for keyboard focus
    let isKeyboard = true;
    const matches = Element.prototype.matches;
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
      return selector === ':focus-visible' ? isKeyboard : matches.call(this, selector);
    });
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };

    await user.tab();
    expect(above).toHaveFocus();
    await user.tab();
    expect(under).toHaveFocus();
    expect(scrolled).toEqual([under]);

    // a pointer's focus is left alone: scrolling between press and release would lose the click
    isKeyboard = false;
    scrolled.length = 0;
    above.focus();
    under.focus();
    expect(scrolled).toEqual([]);
    isKeyboard = true;

    await user.click(screen.getByRole('button', { name: 'Accept' }));
    scrolled.length = 0;
    under.focus();
    expect(scrolled).toEqual([]);
  });
});
