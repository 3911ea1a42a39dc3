import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { requestEarly, takeEarly } from './early-requests';

afterEach(() => {
  vi.useRealTimers();
});

describe('early requests', () => {
  it('asks as apiRequest would, and gives the answer once, to the same path only', async () => {
    localStorage.setItem('token', 'a.b.c');
    const fetchMock = vi.fn(async () => jsonResponse({ hello: 'world' }));
    vi.stubGlobal('fetch', fetchMock);
    requestEarly('/trainers?sort=rating&page=1&limit=24');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/trainers?sort=rating&page=1&limit=24',
      expect.objectContaining({ method: 'GET', headers: expect.objectContaining({ Authorization: 'Bearer a.b.c' }) }),
    );
    expect(takeEarly('/trainers?sort=newest&page=1&limit=24')).toBeUndefined();
    await expect(takeEarly('/trainers?sort=rating&page=1&limit=24')).resolves.toEqual({ hello: 'world' });
    expect(takeEarly('/trainers?sort=rating&page=1&limit=24')).toBeUndefined();
  });

  it('passes a failure to the taker', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Trainer not found', statusCode: 404 }, 404)),
    );
    requestEarly('/trainerData/nope');
    await expect(takeEarly('/trainerData/nope')).rejects.toMatchObject({ status: 404, message: 'Trainer not found' });
  });

  it('drops an answer nobody took soon, so a later visit fetches afresh', () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({})),
    );
    requestEarly('/trainerData/t1');
    vi.advanceTimersByTime(31_000);
    expect(takeEarly('/trainerData/t1')).toBeUndefined();
  });
});
