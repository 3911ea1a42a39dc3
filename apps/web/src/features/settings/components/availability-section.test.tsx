import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { AvailabilitySection } from './availability-section';

const saved = { timeZone: 'Africa/Cairo', weekly: [{ weekday: 1, hours: [9, 10] }] };

describe('AvailabilitySection', () => {
  it('starts from the saved week, toggles hours by mouse and keyboard, and saves the week and zone with PUT', async () => {
    let body: unknown;
    const fetchMock = stubApi((url, init) => {
      if (url.pathname !== '/api/trainer/availability') return undefined;
      if (init.method === 'PUT') {
        body = JSON.parse(init.body as string);
        return jsonResponse(body);
      }
      return jsonResponse(saved);
    });
    const { user } = renderWithProviders(<AvailabilitySection />);

    const monday = await screen.findByRole('group', { name: 'Monday' });
    expect(within(monday).getByRole('button', { name: 'Monday 09:00' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(monday).getByRole('button', { name: 'Monday 11:00' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByLabelText('Time zone')).toHaveValue('Africa/Cairo');

    await user.click(within(monday).getByRole('button', { name: 'Monday 10:00' }));
    expect(within(monday).getByRole('button', { name: 'Monday 10:00' })).toHaveAttribute('aria-pressed', 'false');
    const tuesdaySeven = screen.getByRole('button', { name: 'Tuesday 07:00' });
    tuesdaySeven.focus();
    await user.keyboard(' ');
    expect(tuesdaySeven).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Tab}{Enter}');
    expect(screen.getByRole('button', { name: 'Tuesday 08:00' })).toHaveAttribute('aria-pressed', 'true');
    await user.selectOptions(screen.getByLabelText('Time zone'), 'Europe/London');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));

    expect(await findToast('Your availability is saved')).toHaveAttribute('data-type', 'success');
    expect(body).toEqual({
      timeZone: 'Europe/London',
      weekly: [
        { weekday: 1, hours: [9] },
        { weekday: 2, hours: [7, 8] },
      ],
    });
    expect(callsOf(fetchMock)).toEqual(['GET /api/trainer/availability', 'PUT /api/trainer/availability']);
  });

  it('clears a day and shows a failed save under the form', async () => {
    stubApi((url, init) => {
      if (url.pathname !== '/api/trainer/availability') return undefined;
      if (init.method === 'PUT')
        return jsonResponse({ message: 'Choose a valid time zone, such as Africa/Cairo', statusCode: 400 }, 400);
      return jsonResponse(saved);
    });
    const { user } = renderWithProviders(<AvailabilitySection />);

    await user.click(await screen.findByRole('button', { name: 'Clear Monday' }));
    expect(screen.getByRole('button', { name: 'Monday 09:00' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('0 hours a week')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save availability' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a valid time zone, such as Africa/Cairo');
  });

  it('shows a failed load with Retry, and Retry loads the week', async () => {
    let calls = 0;
    stubApi((url) =>
      url.pathname === '/api/trainer/availability'
        ? ++calls === 1
          ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
          : jsonResponse(saved)
        : undefined,
    );
    const { user } = renderWithProviders(<AvailabilitySection />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Monday 09:00' })).toHaveAttribute('aria-pressed', 'true');
  });
});
