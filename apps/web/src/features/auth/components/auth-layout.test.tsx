import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuthLayout } from './auth-layout';

describe('AuthLayout', () => {
  it('speaks to trainers on the trainer screens and to people who train on theirs', () => {
    const { unmount } = render(
      <AuthLayout title="Trainer sign up" audience="trainer">
        form
      </AuthLayout>,
    );
    expect(screen.getByTestId('auth-panel')).toHaveTextContent('Grow your coaching on your terms.');
    expect(screen.getByTestId('auth-panel')).not.toHaveTextContent('Chat before you book');
    unmount();

    render(<AuthLayout title="Sign up">form</AuthLayout>);
    expect(screen.getByTestId('auth-panel')).toHaveTextContent('Train with someone in your corner.');
  });
});
