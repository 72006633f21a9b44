/**
 * Latency percentiles against offered rate, app beside baseline, as an SVG file: a Vega-Lite
 * spec compiled to Vega and rendered headless in Node (no canvas, no browser, no hand-made SVG).
 */
import { mkdir, writeFile } from 'node:fs/promises';
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

/** Renders the chart to SVG and writes it; returns the SVG text. */
export async function renderLatencyChart(chart: LatencyChart): Promise<string> {
  const { spec } = compile(latencySpec(chart));
  const view = new View(parse(spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  await mkdir(path.dirname(chart.file), { recursive: true });
  await writeFile(chart.file, svg);
  return svg;
}
