import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { chromiumLaunchOptions } from '../../e2e/chromium';

/** The Chromium the browser benches drive, as it names itself. */
export function chromiumVersion(): string {
  const result = spawnSync(chromiumLaunchOptions.executablePath, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.stdout.trim().split('\n').at(-1) ?? 'unknown';
}

/**
 * The machine a browser bench ran on, for its results file: others' work on it skews every number, and the load
 * averages at the start and the end show by how much.
 */
export function machine(loadAverageAtStart: number[]) {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    node: process.version,
    chromium: chromiumVersion(),
    loadAverageAtStart,
    loadAverageAtEnd: loadavg(),
  };
}
