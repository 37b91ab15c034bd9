import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  type ScriptableContext,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import { formatCents } from '../../../shared/money';
import type { Report } from '../../../shared/reports';
import type { ShopFormat } from '../../../shared/settings';

// Chart.js, only the parts a bar chart draws with: this module is imported by the reports page alone, so it is in that
// page's chunk and never in what a rider's page loads (docs/decisions/0065-reports.md).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** The label of a step of the chart: its first day as the shop writes a short date. */
export function stepLabel(day: string, locale: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * Net sales of each step, the period before's beside them, as bars. A picture for the eye: the table after it
 * (reports page) says the same figures to a screen reader, so the canvas is hidden from one.
 */
export function NetSalesChart({ chart, format }: { chart: Report['chart']; format: ShopFormat }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const dollars = (cents: number | null) => (cents ?? 0) / 100;
    const drawn = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: chart.map((step) => stepLabel(step.from, format.locale)),
        datasets: [
          {
            label: 'This period',
            data: chart.map((step) => dollars(step.netCents)),
            backgroundColor: '#1f3350',
          },
          {
            label: 'Period before',
            data: chart.map((step) => dollars(step.previousNetCents)),
            backgroundColor: (context: ScriptableContext<'bar'>) => (context.raw === 0 ? '#0000' : '#9fb8cf'),
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { ticks: { autoSkip: true, maxRotation: 0 } },
          y: { ticks: { callback: (value) => formatCents(Math.round(Number(value) * 100), format) } },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => `${item.dataset.label}: ${formatCents(Math.round((item.parsed.y ?? 0) * 100), format)}`,
            },
          },
        },
      },
    });
    return () => drawn.destroy();
  }, [chart, format]);
  return (
    <div className="report-chart" aria-hidden="true">
      <canvas ref={canvas} />
    </div>
  );
}
