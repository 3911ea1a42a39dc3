import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TAvailability } from '@spotter/shared';
import { callsOf, stubApi } from '@/testing/fake-api';
import { findToast, jsonResponse, renderWithProviders } from '@/testing/render';
import { AvailabilitySection } from './availability-section';

const availability = (overrides: Partial<TAvailability> = {}): TAvailability => ({
  timeZone: 'Africa/Cairo',
  weekly: [{ weekday: 1, hours: [9, 10, 11, 17, 18, 19, 20] }],
  minNoticeHours: 12,
  bufferMinutes: 0,
  overrides: [],
  location: null,
  ...overrides,
});

/** A fake server keeping what was PUT; `failWith` answers every PUT with that error. */
function serve(saved: TAvailability, failWith?: { message: string; statusCode: number }) {
  const sent: unknown[] = [];
  const fetchMock = stubApi((url, init) => {
    if (url.pathname !== '/api/trainer/availability') return undefined;
    if (init.method === 'PUT') {
      const body = JSON.parse(init.body as string) as TAvailability;
      sent.push(body);
      if (failWith) return jsonResponse(failWith, failWith.statusCode);
      return jsonResponse({ ...saved, ...body });
    }
    return jsonResponse(saved);
  });
  return { sent, fetchMock };
}

const rangeOf = (day: HTMLElement, index: number) => ({
  from: within(day).getByRole('combobox', { name: new RegExp(`hours ${index}, from$`) }),
  until: within(day).getByRole('combobox', { name: new RegExp(`hours ${index}, until$`) }),
});

describe('AvailabilitySection', () => {
  it('shows saved hours as ranges, edits them, and saves them back as one-hour slot starts with PUT', async () => {
    const { sent, fetchMock } = serve(availability());
    const { user } = renderWithProviders(<AvailabilitySection />);

    const monday = await screen.findByRole('group', { name: 'Monday' });
    expect(rangeOf(monday, 1).from).toHaveDisplayValue('09:00');
    expect(rangeOf(monday, 1).until).toHaveDisplayValue('12:00');
    expect(rangeOf(monday, 2).from).toHaveDisplayValue('17:00');
    expect(rangeOf(monday, 2).until).toHaveDisplayValue('21:00');
    expect(within(monday).getByText('7 h')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Tuesday' })).getByText('Unavailable')).toBeInTheDocument();
    expect(screen.getByText(/Cairo time, GMT\+[23]/)).toBeInTheDocument();

    // 09:00–12:00 becomes 08:00–10:00; the evening range goes
    await user.selectOptions(rangeOf(monday, 1).from, '08:00');
    await user.selectOptions(rangeOf(monday, 1).until, '10:00');
    await user.click(within(monday).getByRole('button', { name: 'Remove 17:00–21:00 on Monday' }));
    // Saturday: on (09:00–17:00), then a second range after it
    const saturday = screen.getByRole('group', { name: 'Saturday' });
    await user.click(within(saturday).getByRole('checkbox'));
    await user.selectOptions(rangeOf(saturday, 1).until, '11:00');
    await user.click(within(saturday).getByRole('button', { name: 'Add hours to Saturday' }));
    expect(rangeOf(saturday, 2).from).toHaveDisplayValue('11:00');
    expect(rangeOf(saturday, 2).until).toHaveDisplayValue('12:00');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));

    expect(await findToast('Your availability is saved')).toHaveAttribute('data-type', 'success');
    expect(sent[0]).toEqual({
      timeZone: 'Africa/Cairo',
      weekly: [
        { weekday: 1, hours: [8, 9] },
        { weekday: 6, hours: [9, 10, 11] },
      ],
      minNoticeHours: 12,
      bufferMinutes: 0,
      overrides: [],
      location: null,
    });
    expect(callsOf(fetchMock)).toEqual(['GET /api/trainer/availability', 'PUT /api/trainer/availability']);
  });

  it('copies a day to the weekdays, leaving the weekend', async () => {
    const { sent } = serve(
      availability({
        weekly: [
          { weekday: 3, hours: [7, 8, 18] },
          { weekday: 0, hours: [10] },
        ],
      }),
    );
    const { user } = renderWithProviders(<AvailabilitySection />);

    const wednesday = await screen.findByRole('group', { name: 'Wednesday' });
    await user.click(within(wednesday).getByRole('button', { name: 'Copy to weekdays from Wednesday' }));
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Wednesday’s hours copied to Monday to Friday.');
    const friday = screen.getByRole('group', { name: 'Friday' });
    expect(rangeOf(friday, 1).from).toHaveDisplayValue('07:00');
    expect(rangeOf(friday, 2).until).toHaveDisplayValue('19:00');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));

    await findToast('Your availability is saved');
    expect((sent[0] as TAvailability).weekly).toEqual([
      ...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, hours: [7, 8, 18] })),
      { weekday: 0, hours: [10] },
    ]);
  });

  it('refuses a range that ends before it starts, next to the range, and sends nothing', async () => {
    const { sent } = serve(availability());
    const { user } = renderWithProviders(<AvailabilitySection />);

    const monday = await screen.findByRole('group', { name: 'Monday' });
    await user.selectOptions(rangeOf(monday, 1).until, '08:00');
    expect(within(monday).getByText('Choose an end after the start')).toBeInTheDocument();
    expect(rangeOf(monday, 1).until).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Fix the hours marked above, then save.');
    expect(sent).toEqual([]);
  });

  it('adds a day off and a date with extra hours, lists them soonest first, removes one, and saves them', async () => {
    const { sent } = serve(availability({ overrides: [{ date: '2099-01-05', hours: [] }] }));
    const { user } = renderWithProviders(<AvailabilitySection />);

    const list = await screen.findByRole('list', { name: 'Dates with their own hours' });
    expect(list).toHaveTextContent('5 Jan 2099: Unavailable');

    await user.type(screen.getByLabelText('Date'), '2099-12-24');
    await user.click(screen.getByRole('radio', { name: 'Available at these hours' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'the date, hours 1, from' }), '10:00');
    await user.selectOptions(screen.getByRole('combobox', { name: 'the date, hours 1, until' }), '12:00');
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    await user.type(screen.getByLabelText('Date'), '2099-03-01');
    await user.click(screen.getByRole('radio', { name: 'Unavailable' }));
    await user.click(screen.getByRole('button', { name: 'Add date' }));

    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '5 Jan 2099: Unavailable',
      '1 Mar 2099: Unavailable',
      '24 Dec 2099: 10:00–12:00',
    ]);
    await user.click(within(list).getByRole('button', { name: 'Remove 5 Jan 2099' }));
    await user.click(screen.getByRole('button', { name: 'Save availability' }));

    await findToast('Your availability is saved');
    expect((sent[0] as TAvailability).overrides).toEqual([
      { date: '2099-03-01', hours: [] },
      { date: '2099-12-24', hours: [10, 11] },
    ]);
  });

  it('refuses a past or missing date for an override', async () => {
    serve(availability());
    const { user } = renderWithProviders(<AvailabilitySection />);

    await user.click(await screen.findByRole('button', { name: 'Add date' }));
    expect(screen.getByLabelText('Date')).toHaveAccessibleDescription('Choose a date as YYYY-MM-DD');
    await user.type(screen.getByLabelText('Date'), '2001-02-03');
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    expect(screen.getByLabelText('Date')).toHaveAccessibleDescription('Choose today or a later date');
    expect(screen.getByText('No dates with their own hours.')).toBeInTheDocument();
  });

  it('shows the shared rules next to notice and place, sends nothing until they are right, then saves notice, buffer and place', async () => {
    const { sent } = serve(availability());
    const { user } = renderWithProviders(<AvailabilitySection />);

    const notice = await screen.findByLabelText('Minimum notice (hours)');
    expect(notice).toHaveValue(12);
    await user.clear(notice);
    await user.type(notice, '73');
    await user.tab();
    expect(notice).toHaveAccessibleDescription(expect.stringContaining('Choose a minimum notice from 1 to 72 hours'));
    await user.click(screen.getByRole('radio', { name: 'Online' }));
    await user.type(screen.getByLabelText('Meeting link'), 'zoom.us/j/1');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));
    expect(screen.getByLabelText('Meeting link')).toHaveAccessibleDescription(
      expect.stringContaining('Enter the meeting link, starting with https://'),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Check the fields marked above, then save.');
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'An address' }));
    await user.clear(screen.getByLabelText('Address'));
    await user.click(screen.getByRole('button', { name: 'Save availability' }));
    expect(screen.getByLabelText('Address')).toHaveAccessibleDescription(expect.stringContaining('Enter the address'));

    await user.clear(notice);
    await user.type(notice, '2');
    await user.selectOptions(screen.getByLabelText('Buffer between sessions'), '15 minutes');
    await user.click(screen.getByRole('radio', { name: 'Online' }));
    await user.clear(screen.getByLabelText('Meeting link'));
    await user.type(screen.getByLabelText('Meeting link'), 'https://meet.example.com/nadia');
    await user.click(screen.getByRole('button', { name: 'Save availability' }));

    await findToast('Your availability is saved');
    expect(sent[0]).toMatchObject({
      minNoticeHours: 2,
      bufferMinutes: 15,
      location: { kind: 'online', text: 'https://meet.example.com/nadia' },
    });
  });

  it('shows the server’s message when a save fails', async () => {
    serve(availability(), { message: 'Choose a valid time zone, such as Africa/Cairo', statusCode: 400 });
    const { user } = renderWithProviders(<AvailabilitySection />);

    const monday = await screen.findByRole('group', { name: 'Monday' });
    await user.click(within(monday).getByRole('checkbox'));
    expect(within(monday).getByText('Unavailable')).toBeInTheDocument();
    expect(screen.getByText('0 hours a week')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save availability' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a valid time zone, such as Africa/Cairo');
  });

  it('says a trainer without hours is not bookable yet', async () => {
    serve(availability({ weekly: [] }));
    renderWithProviders(<AvailabilitySection />);
    expect(await screen.findByText('Not bookable yet')).toBeInTheDocument();
    expect(screen.queryByText('Free')).not.toBeInTheDocument();
  });

  it('shows a failed load with Retry, and Retry loads the week', async () => {
    let calls = 0;
    stubApi((url) =>
      url.pathname === '/api/trainer/availability'
        ? ++calls === 1
          ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
          : jsonResponse(availability())
        : undefined,
    );
    const { user } = renderWithProviders(<AvailabilitySection />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('group', { name: 'Monday' })).toBeInTheDocument();
    expect(screen.queryByText('Not bookable yet')).not.toBeInTheDocument();
  });
});
