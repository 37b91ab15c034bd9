import pino from 'pino';

export type Logger = pino.Logger;

export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Anything shaped like an e-mail address. */
const emailLike = /[^\s@"'<>()=,;:]+@[^\s@"'<>()=,;:]+/g;

/** The text with every e-mail address replaced: the log never names a customer. */
export function withoutEmails(text: string): string {
  return text.replace(emailLike, '[e-mail]');
}

/** An error as pino writes it (type, message, stack, its own fields), with no e-mail address in any text. */
function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  return JSON.parse(withoutEmails(JSON.stringify(serialized)));
}

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
      serializers: { err: serializeError },
    },
    destination,
  );
}
