import pino from 'pino';

export type Logger = pino.Logger;

export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/**
 * One JSON object per line on stdout: `time` (ISO), `level` (its name), `msg` and the fields; errors go under
 * `err` with their type, message and stack. Lines are written asynchronously, in batches, so a busy server
 * does not wait on its log; pino flushes what is buffered when the process exits.
 */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination({ sync: false })) {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
