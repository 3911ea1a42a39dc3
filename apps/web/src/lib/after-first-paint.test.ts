import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from './after-first-paint';

/** A PerformanceObserver whose paint entries the test hands out. */
function fakePaintTiming() {
  const observers: Array<(names: string[]) => void> = [];
  class FakeObserver {
    constructor(private callback: PerformanceObserverCallback) {}
    observe() {
      observers.push((names) =>
        this.callback(
          { getEntriesByName: (name: string) => names.filter((n) => n === name) } as unknown as PerformanceObserverEntryList,
          this as never,
        ),
      );
    }
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return { paint: (...names: string[]) => observers.forEach((report) => report(names)) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('runs once the first contentful paint is reported, and only once', () => {
    vi.useFakeTimers();
    const timing = fakePaintTiming();
    const run = vi.fn();
    afterFirstPaint(run);
    timing.paint('first-paint');
    expect(run).not.toHaveBeenCalled();
    timing.paint('first-contentful-paint');
    expect(run).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledOnce();
  });

  it('runs after 200 ms when no paint is reported (a tab in the background) or the browser has no paint timing', () => {
    vi.useFakeTimers();
    fakePaintTiming();
    const run = vi.fn();
    afterFirstPaint(run);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledOnce();

    vi.stubGlobal('PerformanceObserver', undefined);
    const without = vi.fn();
    afterFirstPaint(without);
    vi.advanceTimersByTime(200);
    expect(without).toHaveBeenCalledOnce();
  });
});
