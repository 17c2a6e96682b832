// The mock's logger (pino): JSON lines, or pino-pretty's colourised lines when the destination
// is a terminal. Loaded only when logging is on, so a silent start (tests, startMockServer
// without a level) does not pay for pino.
import type { DestinationStream, Logger } from 'pino';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Why `level` is not a level of the log, or undefined when it is (pino's own error names no option). */
export function logLevelProblem(level: unknown): string | undefined {
  return (logLevels as readonly unknown[]).includes(level) ? undefined : `must be one of ${logLevels.join(', ')}`;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; default stdout. */
  destination?: DestinationStream & { isTTY?: boolean };
  /** Pretty lines instead of JSON; default: when the destination is a terminal. */
  pretty?: boolean;
}

export async function createLogger(options: LoggerOptions): Promise<Logger> {
  const { pino, stdTimeFunctions } = await import('pino');
  const base = { level: options.level, base: null, timestamp: stdTimeFunctions.isoTime };
  const destination = options.destination ?? process.stdout;
  if (!(options.pretty ?? destination.isTTY === true)) return pino(base, destination);
  const { default: pretty } = await import('pino-pretty');
  // Synchronous, in this thread: no worker, and the lines keep their order with the banner. The
  // message already carries every field of a request line, so the object is not repeated.
  return pino(base, pretty({ destination, sync: true, hideObject: true, translateTime: 'SYS:HH:MM:ss.l' }));
}
