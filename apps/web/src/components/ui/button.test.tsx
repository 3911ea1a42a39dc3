import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NEEDS_CONNECTION } from '@/lib/online';
import { goOnline } from '@/testing/online';
import { Button } from './button';

// docs/product.md#installable-and-offline: a form is sent to the server, so its submit button waits offline
describe('Button offline', () => {
  it("a form's submit button is disabled while offline and says why; back online it works again", () => {
    render(
      <form>
        <Button type="submit">Save</Button>
      </form>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    goOnline(false);
    expect(save).toBeDisabled();
    expect(save).toHaveAttribute('title', NEEDS_CONNECTION);
    goOnline(true);
    expect(save).toBeEnabled();
    expect(save).not.toHaveAttribute('title');
  });

  it('leaves other buttons, and a form that keeps what it sends (a chat message), usable offline', () => {
    goOnline(false);
    render(
      <form>
        <Button>Open menu</Button>
        <Button type="submit" worksOffline>
          Send
        </Button>
      </form>,
    );
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
});
