/**
 * Sweep to the knee: offer a rate, measure, raise the rate step by step until the chosen
 * percentile passes its target (or the run overloads or errs), for the app and for its baseline.
 * The knee is the highest offered rate that still met the target; the headline is the ratio of
 * the app's knee to the baseline's. Every point carries the load average (and, when the caller
 * measures it, the server's memory) taken right after it, so a figure is never read without them.
 *
 * Reused by every bench that sweeps (messages, swipes, recommendations): give `measure` one
 * run at a given rate; render the result with `chart.ts`.
 */
import os from 'node:os';
import { summarize } from './stats.ts';

/** What one run at one offered rate produced (the shape `openLoop` and the load workers return). */
export type RunAtRate = {
  latenciesMs: number[];
  sent: number;
  errors: number;
  elapsedMs: number;
  overloaded: boolean;
  /** Resident memory of the server under test, in MB, when the bench measures it. */
  rssMb?: number;
};

export type SweepPoint = {
  offeredRate: number;
  /** Completed operations per second. */
  achievedRate: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  overloaded: boolean;
  /** 1-minute load average right after the point. */
  load: number;
  rssMb?: number;
  isMet: boolean;
};

export type SweepSeries = {
  label: string;
  percentile: 'p95' | 'p99';
  targetMs: number;
  points: SweepPoint[];
  /** Highest offered rate that met the target; undefined when none did. */
  knee: number | undefined;
  /** Lowest offered rate the run could not keep up with (overloaded or erred); undefined when none. */
  overload: number | undefined;
};

export type SweepOptions = {
  label: string;
  /** Offered rates, ascending: the sweep stops at the first one that misses the target. */
  rates: readonly number[];
  percentile: 'p95' | 'p99';
  targetMs: number;
  measure: (rate: number) => Promise<RunAtRate>;
  /**
   * Consecutive misses before stopping (default 1; 2 rides out one noisy point; Infinity keeps
   * raising the rate past the target until the run overloads, so the chart shows the curve).
   * An overloaded or erred point always stops the sweep.
   */
  missesToStop?: number;
  /** Called after each point (progress lines). */
  onPoint?: (point: SweepPoint) => void;
};

/** Geometric steps from `start` to `max` (inclusive), rounded to two significant figures. */
export function rateSteps(start: number, max: number, factor = 1.5): number[] {
  const steps: number[] = [];
  for (let rate = start; rate < max * 1.0001; rate *= factor) {
    const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(rate)) - 1);
    const rounded = Math.round(rate / magnitude) * magnitude;
    if (steps.at(-1) !== rounded) steps.push(rounded);
  }
  if (steps.at(-1) !== max) steps.push(max);
  return steps;
}

export async function sweep(options: SweepOptions): Promise<SweepSeries> {
  const points: SweepPoint[] = [];
  let knee: number | undefined;
  let overload: number | undefined;
  let misses = 0;
  for (const rate of options.rates) {
    const run = await options.measure(rate);
    const stats = summarize(run.latenciesMs);
    const completed = run.sent - run.errors;
    const point: SweepPoint = {
      offeredRate: rate,
      achievedRate: run.elapsedMs > 0 ? (completed / run.elapsedMs) * 1000 : 0,
      ...stats,
      errors: run.errors,
      overloaded: run.overloaded,
      load: os.loadavg()[0] as number,
      ...(run.rssMb === undefined ? {} : { rssMb: run.rssMb }),
      isMet: !run.overloaded && run.errors === 0 && stats[options.percentile] <= options.targetMs,
    };
    points.push(point);
    options.onPoint?.(point);
    if (point.isMet) {
      knee = rate;
      misses = 0;
    } else {
      misses += 1;
      if (point.overloaded || point.errors > 0) {
        overload = rate;
        break;
      }
      if (misses >= (options.missesToStop ?? 1)) break;
    }
  }
  return { label: options.label, percentile: options.percentile, targetMs: options.targetMs, points, knee, overload };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms` : '—');

/** One line per point: offered, achieved, p50/p95/p99, load, memory, met or not. */
export function pointLine(series: Pick<SweepSeries, 'label' | 'percentile' | 'targetMs'>, point: SweepPoint): string {
  const memory = point.rssMb === undefined ? '' : `, RSS ${point.rssMb.toFixed(0)} MB`;
  const state = point.overloaded ? 'OVERLOADED' : point.errors > 0 ? `${point.errors} errors` : '';
  return `${series.label} @ ${point.offeredRate}/s: achieved ${point.achievedRate.toFixed(0)}/s, p50 ${ms(point.p50)} p95 ${ms(point.p95)} p99 ${ms(point.p99)} (load ${point.load.toFixed(2)}${memory}) ${point.isMet ? `${series.percentile} ≤ ${series.targetMs} ms` : `MISSED ${state}`.trim()}`;
}

/** The headline: both knees and their ratio (app ÷ baseline: 1.00 means as fast as the bare operation). */
export function kneeLines(app: SweepSeries, baseline: SweepSeries): string[] {
  const kneeOf = (series: SweepSeries) => {
    const last = series.points.find((point) => point.offeredRate === series.knee);
    const topped = series.knee !== undefined && series.knee === series.points.at(-1)?.offeredRate;
    const overloaded = series.points.find((point) => point.offeredRate === series.overload);
    const overload =
      series.overload === undefined
        ? series.points.at(-1)?.isMet === false
          ? ''
          : '; not overloaded up to the highest rate tried'
        : `; overloads at ${series.overload}/s (${overloaded?.achievedRate.toFixed(0)}/s completed, load ${overloaded?.load.toFixed(2)})`;
    return series.knee === undefined
      ? `${series.label}: no knee (no rate met ${series.percentile} ≤ ${series.targetMs} ms)${overload}`
      : `${series.label}: knee ≥ ${series.knee}/s${topped ? ' (the highest rate tried)' : ''} at ${series.percentile} ${ms(last?.[series.percentile] ?? Number.NaN)} (load ${last?.load.toFixed(2)}${last?.rssMb === undefined ? '' : `, RSS ${last.rssMb.toFixed(0)} MB`})${overload}`;
  };
  const ratio = app.knee !== undefined && baseline.knee !== undefined ? (app.knee / baseline.knee).toFixed(2) : 'n/a';
  return [kneeOf(app), kneeOf(baseline), `knee ratio app / baseline: ${ratio}`];
}
