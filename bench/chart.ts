/**
 * Latency percentiles against offered rate, app beside baseline, as an SVG file: a Vega-Lite
 * spec compiled to Vega and rendered headless in Node (no canvas, no browser, no hand-made SVG).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { SweepSeries } from './sweep.ts';

export type LatencyChart = {
  title: string;
  /** App and baseline series (any number); each draws p50, p95 and p99. */
  series: readonly SweepSeries[];
  /** Where to write the SVG (created with its folder). */
  file: string;
  /** Horizontal rule at the target (default: the first series' target). */
  targetMs?: number;
  /** Subtitle, e.g. the load average and the machine. */
  subtitle?: string;
};

/** The Vega-Lite spec of a latency chart (exported for tests and for other renderers). */
export function latencySpec(chart: Omit<LatencyChart, 'file'>): TopLevelSpec {
  const rows = chart.series.flatMap((series) =>
    series.points.flatMap((point) =>
      (['p50', 'p95', 'p99'] as const)
        .filter((key) => Number.isFinite(point[key]) && point[key] > 0)
        .map((key) => ({
          series: series.label,
          percentile: key,
          offered: point.offeredRate,
          latency: point[key],
          load: Number(point.load.toFixed(2)),
          overloaded: point.overloaded,
        })),
    ),
  );
  const target = chart.targetMs ?? chart.series[0]?.targetMs;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: chart.title, ...(chart.subtitle ? { subtitle: chart.subtitle } : {}) },
    width: 560,
    height: 320,
    background: 'white',
    layer: [
      {
        data: { values: rows },
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'offered', type: 'quantitative', title: 'offered rate (per second)', axis: { format: 'd' } },
          y: {
            field: 'latency',
            type: 'quantitative',
            title: 'latency (ms, log scale)',
            scale: { type: 'log' },
          },
          color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'top-left', labelLimit: 400 } },
          strokeDash: {
            field: 'percentile',
            type: 'nominal',
            title: 'percentile',
            sort: ['p50', 'p95', 'p99'],
          },
          shape: { field: 'percentile', type: 'nominal', sort: ['p50', 'p95', 'p99'], legend: null },
        },
      },
      ...(target === undefined
        ? []
        : [
            {
              data: { values: [{ target }] },
              mark: { type: 'rule' as const, color: '#b00', strokeDash: [2, 2] },
              encoding: { y: { field: 'target', type: 'quantitative' as const } },
            },
          ]),
    ],
  };
}

/**
 * An earlier run's series of the same chart, from `BENCH_CHART_BEFORE` (a directory holding that
 * run's `<chart>.json`, e.g. a copy of docs/performance/ taken before a change), labelled
 * «before: …»; none when the variable is unset, or (said on the console) when the file is missing.
 */
async function seriesBefore(file: string): Promise<SweepSeries[]> {
  const directory = process.env.BENCH_CHART_BEFORE;
  if (!directory) return [];
  try {
    const saved = JSON.parse(await readFile(path.join(directory, jsonName(file)), 'utf8')) as SweepSeries[];
    return saved.map((series) => ({ ...series, label: `before: ${series.label}` }));
  } catch (error) {
    console.warn(`  (no «before» series for ${path.basename(file)}: ${(error as Error).message})`);
    return [];
  }
}

const jsonName = (file: string) => path.basename(file).replace(/\.svg$/, '.json');

/**
 * Renders the chart to SVG and writes it, with this run's series as JSON beside it (the next
 * run's «before» with `BENCH_CHART_BEFORE`: old and new on one chart); returns the SVG text.
 */
export async function renderLatencyChart(input: LatencyChart): Promise<string> {
  await mkdir(path.dirname(input.file), { recursive: true });
  await writeFile(path.join(path.dirname(input.file), jsonName(input.file)), JSON.stringify(input.series, null, 1));
  const chart = { ...input, series: [...input.series, ...(await seriesBefore(input.file))] };
  const { spec } = compile(latencySpec(chart));
  const view = new View(parse(spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  await writeFile(chart.file, svg);
  return svg;
}
