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

let second = -1;
let secondText = '';

/**
 * pino's `time` field, ISO 8601 in UTC as `Date#toISOString` writes it, with the date and time up to the second
 * made once a second: formatting a date for every line cost a busy server a few per cent of its time.
 */
function isoTime(): string {
  const now = Date.now();
  const thisSecond = Math.floor(now / 1000);
  if (thisSecond !== second) {
    second = thisSecond;
    secondText = new Date(thisSecond * 1000).toISOString().slice(0, 19);
  }
  return `,"time":"${secondText}.${String(now % 1000).padStart(3, '0')}Z"`;
}

/** Lines are buffered up to this many bytes, or this long, then written to stdout in one write. */
const batchBytes = 4096;
const batchMs = 200;

/**
 * Standard output, written asynchronously in batches: a busy server makes one write per few dozen lines instead of
 * one per line (each a hop to a worker thread and back); a quiet one writes what it has every `batchMs`. pino
 * flushes what is buffered when the process exits.
 */
function batchedStdout(): pino.DestinationStream {
  const destination = pino.destination({ sync: false, minLength: batchBytes });
  setInterval(() => destination.flush(), batchMs).unref();
  return destination;
}

/**
 * One JSON object per line on stdout: `time` (ISO), `level` (its name), `msg` and the fields; errors go under
 * `err` with their type, message and stack. Lines are written asynchronously, in batches (`batchedStdout`), so a
 * busy server does not wait on its log.
 */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = batchedStdout()) {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
    },
    destination,
  );
}
