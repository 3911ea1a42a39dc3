import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useTrainerSearch } from './use-trainer-search';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/trainers?city=Giza&page=3']}>{children}</MemoryRouter>
);

const renderSearch = () => renderHook(() => ({ ...useTrainerSearch(), location: useLocation() }), { wrapper });

describe('useTrainerSearch', () => {
  it('keeps both of two changes made before the next render (a filter, then the sort)', () => {
    const { result } = renderSearch();
    act(() => {
      result.current.update({ gender: 'female' });
      result.current.update({ sort: 'price_asc' });
    });
    const params = new URLSearchParams(result.current.location.search);
    expect(Object.fromEntries(params)).toEqual({ city: 'Giza', gender: 'female', sort: 'price_asc' });
    expect(result.current.search).toMatchObject({ city: 'Giza', gender: 'female', sort: 'price_asc', page: 1 });
  });

  it('builds on the address again once it changes by other means (back, a link)', () => {
    const { result } = renderSearch();
    act(() => result.current.update({ gender: 'male' }));
    act(() => result.current.clearFilters());
    act(() => result.current.update({ sort: 'price_desc' }));
    expect(Object.fromEntries(new URLSearchParams(result.current.location.search))).toEqual({ sort: 'price_desc' });
  });
});
