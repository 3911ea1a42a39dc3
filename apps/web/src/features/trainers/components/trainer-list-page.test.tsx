import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { callsOf, listAnswer, makeTrainer, stubApi } from '@/testing/fake-api';
import { TrainerListPage } from './trainer-list-page';

const trainersRoute =
  (answer: () => Response) =>
  (url: URL): Response | undefined =>
    url.pathname === '/api/trainers' ? answer() : undefined;

const renderList = (route: string) => renderWithProviders(<TrainerListPage />, { route, path: '/trainers' });

describe('TrainerListPage', () => {
  it('puts the query of the address into the form and asks the server for it', async () => {
    const fetchMock = stubApi(
      trainersRoute(() =>
        jsonResponse(listAnswer([makeTrainer(), makeTrainer({ _id: 't2', firstName: 'Salma', price: 200 })], 48)),
      ),
    );
    renderList('/trainers?sort=price_asc&gender=female&city=Giza&minPrice=100&q=yoga');

    expect(await screen.findByText('48 trainers')).toBeInTheDocument();
    expect(screen.getByLabelText('Sort by')).toHaveValue('price_asc');
    expect(screen.getByRole('option', { name: 'Price: low to high' })).toHaveProperty('selected', true);
    expect(screen.getByLabelText('Gender')).toHaveValue('female');
    expect(screen.getByLabelText('City')).toHaveValue('Giza');
    expect(screen.getByLabelText('Min price')).toHaveValue(100);
    expect(screen.getByLabelText('Search trainers')).toHaveValue('yoga');
    expect(screen.getAllByRole('link', { name: 'View profile' })).toHaveLength(2);

    const [request] = callsOf(fetchMock);
    const params = new URL(request.split(' ')[1], 'http://localhost').searchParams;
    expect(Object.fromEntries(params)).toEqual({
      q: 'yoga',
      minPrice: '100',
      gender: 'female',
      city: 'Giza',
      sort: 'price_asc',
      page: '1',
      limit: '24',
    });
    // 48 results of 24 a page: two pages.
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pages).getByRole('link', { name: 'Next' })).toHaveAttribute(
      'href',
      '/trainers?q=yoga&minPrice=100&gender=female&city=Giza&sort=price_asc&page=2',
    );
  });

  it('falls back to the defaults for values in the address it cannot use', async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()]))));
    renderList('/trainers?sort=cheapest&gender=robot&page=-3&minRating=9&minPrice=abc&city=Atlantis');

    expect(await screen.findByText('1 trainer')).toBeInTheDocument();
    expect(screen.getByLabelText('Sort by')).toHaveValue('rating');
    expect(screen.getByLabelText('Gender')).toHaveValue('');
    expect(screen.getByLabelText('City')).toHaveValue('');
    expect(screen.getByLabelText('Minimum rating')).toHaveValue('');
    expect(callsOf(fetchMock)).toEqual(['GET /api/trainers?sort=rating&page=1&limit=24']);
  });

  it('shows the empty state, and Clear filters empties the query', async () => {
    stubApi(trainersRoute(() => jsonResponse(listAnswer([], 0))));
    const { user, router } = renderList('/trainers?gender=male&sort=newest&city=Luxor');

    expect(await screen.findByRole('heading', { name: 'No trainers match your search' })).toBeInTheDocument();
    expect(screen.getByText('0 trainers')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));

    await waitFor(() => expect(router.state.location.search).toBe('?sort=newest'));
    expect(screen.getByLabelText('Gender')).toHaveValue('');
    expect(screen.getByLabelText('City')).toHaveValue('');
  });

  it('shows the error within 3 s, saying it once, with a Retry that asks again', async () => {
    let attempts = 0;
    stubApi(
      trainersRoute(() => {
        attempts += 1;
        // One quick automatic retry fails too, then the person sees the error.
        return attempts <= 2
          ? jsonResponse({ message: 'Service unavailable', statusCode: 503 }, 503)
          : jsonResponse(listAnswer([makeTrainer()]));
      }),
    );
    const { user } = renderList('/trainers');

    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent('Service unavailable');
    expect(screen.getAllByText('Could not load trainers')).toHaveLength(1);
    expect(attempts).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Nadia Samir' })).toBeInTheDocument();
  });

  it('changing the sort writes it into the address and goes back to page 1', async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()], 100))));
    const { user, router } = renderList('/trainers?page=3');
    await screen.findByText('100 trainers');

    await user.selectOptions(screen.getByLabelText('Sort by'), 'Price: high to low');

    await waitFor(() => expect(router.state.location.search).toBe('?sort=price_desc'));
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /api/trainers?sort=price_desc&page=1&limit=24'));
  });

  it('searches after a pause in typing, with one request', async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()]))));
    const { user, router } = renderList('/trainers');
    await screen.findByText('1 trainer');

    await user.type(screen.getByLabelText('Search trainers'), 'box');

    await waitFor(() => expect(router.state.location.search).toBe('?q=box'));
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /api/trainers?q=box&sort=rating&page=1&limit=24'));
    expect(callsOf(fetchMock).filter((call) => call.includes('q='))).toHaveLength(1);
  });

  it('"Favourites only" asks for the favourite ids', async () => {
    localStorage.setItem('favorites', '["a","b"]');
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()]))));
    const { user } = renderList('/trainers');
    await screen.findByText('1 trainer');

    await user.click(screen.getByLabelText('Favourites only'));

    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /api/trainers?sort=rating&page=1&limit=24&ids=a%2Cb'));
  });

  it('"Verified coaches only" writes verified=1 into the address, asks for verified=true and says "verified coaches"', async () => {
    const fetchMock = stubApi(
      trainersRoute(() =>
        jsonResponse(listAnswer([makeTrainer({ verified: true }), makeTrainer({ _id: 't2', firstName: 'Salma' })], 2)),
      ),
    );
    const { user, router } = renderList('/trainers?page=2');
    expect(await screen.findByText('2 trainers')).toBeInTheDocument();
    const [nadia, salma] = screen.getAllByRole('article');
    expect(within(nadia).getByText('Verified coach')).toBeInTheDocument();
    expect(within(salma).queryByText('Verified coach')).not.toBeInTheDocument();

    const box = screen.getByLabelText('Verified coaches only');
    expect(box).not.toBeChecked();
    await user.click(box);
    await waitFor(() => expect(router.state.location.search).toBe('?verified=1'));
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /api/trainers?verified=true&sort=rating&page=1&limit=24'));
    expect(await screen.findByText('2 verified coaches')).toBeInTheDocument();
    expect(box).toBeChecked();
    expect(screen.queryByText(/certified/i)).not.toBeInTheDocument();
  });

  it('reads verified=1 from the address, and says when no verified coach matches', async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([]))));
    const { user, router } = renderList('/trainers?verified=1&city=Luxor');
    expect(await screen.findByRole('heading', { name: 'No verified coaches match your search' })).toBeInTheDocument();
    expect(screen.getByLabelText('Verified coaches only')).toBeChecked();
    expect(callsOf(fetchMock)).toEqual(['GET /api/trainers?city=Luxor&verified=true&sort=rating&page=1&limit=24']);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens the filters of small screens in a sheet, loaded on first use, and returns focus on closing', async () => {
    stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()], 48))));
    const { user } = renderList('/trainers?gender=female');
    await screen.findByText('48 trainers');
    const button = screen.getByRole('button', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    const sheet = await screen.findByRole('dialog', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(within(sheet).getByLabelText('Gender')).toHaveValue('female');

    await user.click(within(sheet).getByRole('button', { name: 'Show 48 trainers' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });

  it("shows each card's next free time, and nothing for a trainer with none; the copy does not call everyone certified", async () => {
    stubApi(
      trainersRoute(() =>
        jsonResponse(
          listAnswer([
            makeTrainer({ nextFreeAt: '2030-01-08T05:00:00.000Z' }),
            makeTrainer({ _id: 't2', firstName: 'Salma', nextFreeAt: null }),
          ]),
        ),
      ),
    );
    renderList('/trainers');

    const [nadia, salma] = await screen.findAllByRole('article');
    // UTC in the tests: Tuesday 8 January, 05:00
    expect(within(nadia).getByText(/^Next free:/)).toHaveTextContent('Next free: Tue 05:00');
    expect(within(nadia).getByText('Tue 05:00')).toHaveAttribute('dateTime', '2030-01-08T05:00:00.000Z');
    expect(within(salma).queryByText(/Next free/)).not.toBeInTheDocument();
    expect(screen.queryByText(/certified/i)).not.toBeInTheDocument();
  });

  it('reads the availability filter, the date and the soonest sort from the address and asks the server for them', async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()]))));
    renderList('/trainers?available=evenings&availableOn=2030-01-07&sort=soonest');

    await screen.findByText('1 trainer');
    expect(screen.getByLabelText('Available')).toHaveValue('evenings');
    expect(screen.getByLabelText('Available on')).toHaveValue('2030-01-07');
    expect(screen.getByLabelText('Sort by')).toHaveValue('soonest');
    expect(callsOf(fetchMock)).toEqual([
      'GET /api/trainers?available=evenings&availableOn=2030-01-07&sort=soonest&page=1&limit=24',
    ]);
  });

  it("choosing 'This week' and 'Soonest available' writes them into the address and the request", async () => {
    const fetchMock = stubApi(trainersRoute(() => jsonResponse(listAnswer([makeTrainer()], 100))));
    const { user, router } = renderList('/trainers?page=2');
    await screen.findByText('100 trainers');

    await user.selectOptions(screen.getByLabelText('Available'), 'This week');
    await waitFor(() => expect(router.state.location.search).toBe('?available=week'));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Soonest available');
    await waitFor(() => expect(router.state.location.search).toBe('?available=week&sort=soonest'));
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /api/trainers?available=week&sort=soonest&page=1&limit=24'));

    await user.type(screen.getByLabelText('Available on'), '2030-01-09');
    await waitFor(() => expect(router.state.location.search).toBe('?available=week&availableOn=2030-01-09&sort=soonest'));
    await waitFor(() =>
      expect(callsOf(fetchMock)).toContain(
        'GET /api/trainers?available=week&availableOn=2030-01-09&sort=soonest&page=1&limit=24',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=soonest'));
  });
});
