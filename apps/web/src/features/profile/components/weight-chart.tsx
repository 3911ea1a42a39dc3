import { useId } from 'react';
import type { WeightEntry } from '../api/get-weights';
import { formatDate } from '@/lib/format';

const WIDTH = 320;
const HEIGHT = 140;
const PAD = { top: 14, right: 14, bottom: 14, left: 40 };

/** Plot coordinates: saved weights evenly spaced left to right (oldest first), scaled to fit. */
function layout(weights: WeightEntry[]) {
  const values = weights.map((w) => w.weight);
  const min = Math.min(...values);
  const max = Math.max(...values);
  // Keep a flat line in the middle, and give small changes some room.
  const span = Math.max(max - min, 4);
  const low = (min + max) / 2 - span / 2 - 1;
  const high = low + span + 2;
  // Points start a little right of the axis labels.
  const left = PAD.left + 14;
  const innerW = WIDTH - left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => left + (weights.length === 1 ? innerW / 2 : (innerW * i) / (weights.length - 1));
  const y = (value: number) => PAD.top + innerH - ((value - low) / (high - low)) * innerH;
  return { min, max, points: weights.map((w, i) => ({ ...w, x: x(i), y: y(w.weight) })), yMin: y(min), yMax: y(max) };
}

/**
 * Weight over time as a small SVG line chart, one point per saved weight. Screen readers get a
 * one-sentence summary and the numbers as a table.
 */
export function WeightChart({ weights }: { weights: WeightEntry[] }) {
  const summaryId = useId();
  if (weights.length === 0) return null;
  const { min, max, points, yMin, yMax } = layout(weights);
  const first = weights[0];
  const last = weights[weights.length - 1];
  const summary =
    weights.length === 1
      ? `One weight saved: ${first.weight} kg on ${formatDate(first.recordedAt)}.`
      : `${weights.length} weights saved, from ${first.weight} kg on ${formatDate(first.recordedAt)} to ${last.weight} kg on ${formatDate(last.recordedAt)}; lowest ${min} kg, highest ${max} kg.`;

  return (
    <figure className="m-0">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={summaryId} className="h-auto w-full overflow-visible">
        <g className="text-line" stroke="currentColor" strokeDasharray="3 4">
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={yMax} y2={yMax} />
          {max !== min && <line x1={PAD.left} x2={WIDTH - PAD.right} y1={yMin} y2={yMin} />}
        </g>
        <g className="fill-subtle text-[11px]" textAnchor="end">
          <text x={PAD.left - 6} y={yMax} dominantBaseline="middle">
            {max} kg
          </text>
          {max !== min && (
            <text x={PAD.left - 6} y={yMin} dominantBaseline="middle">
              {min} kg
            </text>
          )}
        </g>
        {points.length > 1 && (
          <polyline
            points={points.map((p) => `${p.x},${p.y}`).join(' ')}
            fill="none"
            className="stroke-ink"
            strokeWidth={2.5}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        )}
        {points.map((p, i) => (
          <circle
            key={`${p.recordedAt}-${i}`}
            data-testid="weight-point"
            cx={p.x}
            cy={p.y}
            r={4.5}
            className="fill-accent stroke-ink"
            strokeWidth={2}
          />
        ))}
      </svg>
      <figcaption id={summaryId} className="mt-2 text-sm text-muted">
        {summary}
      </figcaption>
      <table className="sr-only">
        <caption>Saved weights</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Weight</th>
          </tr>
        </thead>
        <tbody>
          {weights.map((w, i) => (
            <tr key={`${w.recordedAt}-${i}`}>
              <td>{formatDate(w.recordedAt)}</td>
              <td>{w.weight} kg</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
