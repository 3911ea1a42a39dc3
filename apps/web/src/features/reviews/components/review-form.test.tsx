import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeReview, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { ReviewForm } from './review-form';

const reviewsRoute = (url: URL, init: RequestInit) =>
  url.pathname === '/api/reviews/new' && init.method === 'POST'
    ? jsonResponse({ message: 'Thank you for sharing your experience!', review: makeReview() }, 201)
    : undefined;

function logInAs(role: 'user' | 'trainer') {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', role);
}

describe('ReviewForm', () => {
  it('waits for a connection while offline, and says so (docs/product.md#installable-and-offline)', () => {
    logInAs('user');
    stubApi(reviewsRoute);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);
    const post = screen.getByRole('button', { name: 'Post review' });
    expect(post).toBeDisabled();
    expect(post).toHaveAccessibleDescription('You need a connection for this.');

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(post).toBeEnabled();
    expect(post).not.toHaveAccessibleDescription();
  });

  it('starts with no star chosen and asks for a rating on submit, without posting', async () => {
    logInAs('user');
    const fetchMock = stubApi(reviewsRoute);
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);

    const stars = screen.getAllByRole('radio');
    expect(stars).toHaveLength(5);
    stars.forEach((star) => expect(star).not.toBeChecked());
    expect(screen.getByRole('group', { name: 'Your rating' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Your review'), 'Good coach');
    await user.click(screen.getByRole('button', { name: 'Post review' }));

    expect(await screen.findByText('Please choose a rating from 1 to 5 stars')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Your rating' })).toHaveAccessibleDescription(
      'Please choose a rating from 1 to 5 stars',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the trainer, the stars and the comment, then thanks and keeps the saved review to edit', async () => {
    logInAs('user');
    const fetchMock = stubApi(reviewsRoute);
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);

    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    // Keyboard: the arrow key moves the choice to 5 stars.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '5 stars' })).toBeChecked();
    await user.type(screen.getByLabelText('Your review'), '  Patient and precise.  ');
    expect(screen.getByText('24/1000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Post review' }));

    expect(await findToast('Thank you for sharing your experience!')).toHaveAttribute('data-type', 'success');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/reviews/new');
    expect(JSON.parse(init.body as string)).toEqual({ trainerId: 't1', rating: 5, comment: 'Patient and precise.' });
    expect(screen.getByLabelText('Your review')).toHaveValue('Patient and precise.');
    expect(screen.getByRole('radio', { name: '5 stars' })).toBeChecked();
  });

  it('asks for a comment', async () => {
    logInAs('user');
    stubApi(reviewsRoute);
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);
    await user.click(screen.getByRole('radio', { name: '3 stars' }));
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByText('Please write a comment')).toBeInTheDocument();
    expect(screen.getByLabelText('Your review')).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells a trainer that trainers cannot post reviews', async () => {
    logInAs('trainer');
    const fetchMock = stubApi(reviewsRoute);
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);

    await user.click(screen.getByRole('button', { name: 'Post review' }));

    expect(await findToast("Trainers can't post reviews!")).toHaveAttribute('data-type', 'error');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's message when the post fails", async () => {
    logInAs('user');
    stubApi(() => jsonResponse({ message: 'Please log in first!', statusCode: 401 }, 401));
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);
    await user.click(screen.getByRole('radio', { name: '2 stars' }));
    await user.type(screen.getByLabelText('Your review'), 'Late twice.');
    await user.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in first!');
  });

  it("shows the server's refusal of an unverified account, with Resend for a new link", async () => {
    logInAs('user');
    stubApi((url, init) => {
      if (url.pathname === '/api/reviews/new') {
        return jsonResponse(
          { message: 'Verify your e-mail address to post a review', statusCode: 403, code: 'EMAIL_NOT_VERIFIED' },
          403,
        );
      }
      if (url.pathname === '/api/verify/resend' && init.method === 'POST') {
        return jsonResponse({ message: 'We sent you a new verification link' });
      }
      return undefined;
    });
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);
    await user.click(screen.getByRole('radio', { name: '5 stars' }));
    await user.type(screen.getByLabelText('Your review'), 'Great coach.');
    await user.click(screen.getByRole('button', { name: 'Post review' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Verify your e-mail address to post a review');
    await user.click(within(alert).getByRole('button', { name: 'Resend' }));
    expect(await findToast('We sent you a new verification link')).toHaveAttribute('data-type', 'success');
  });

  it("puts the server's field messages under their fields", async () => {
    logInAs('user');
    stubApi(() =>
      jsonResponse(
        { message: 'Some fields are not valid', statusCode: 400, errors: { comment: 'Max number of characters is 1000' } },
        400,
      ),
    );
    const { user } = renderWithProviders(<ReviewForm trainerId="t1" firstName="Nadia" />);
    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    await user.type(screen.getByLabelText('Your review'), 'Fine.');
    await user.click(screen.getByRole('button', { name: 'Post review' }));

    expect(await screen.findByText('Max number of characters is 1000')).toBeInTheDocument();
    expect(screen.getByLabelText('Your review')).toHaveAccessibleDescription(
      expect.stringContaining('Max number of characters is 1000'),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Some fields are not valid');
  });

  it('starts with the review the user already wrote and says posting again updates it', () => {
    logInAs('user');
    renderWithProviders(
      <ReviewForm trainerId="t1" firstName="Nadia" myReview={makeReview({ rating: 3, comment: 'Solid.', isMine: true })} />,
    );
    expect(screen.getByText('You reviewed Nadia; posting again updates your review')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '3 stars' })).toBeChecked();
    expect(screen.getByLabelText('Your review')).toHaveValue('Solid.');
  });
});
