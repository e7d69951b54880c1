/** Structured logs: one JSON object per line on stdout, so a log shipper can parse them without a grammar. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  enabled: boolean,
  write: (line: string) => void = (l) => process.stdout.write(l),
): Logger {
  const log = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    if (enabled) write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = createLogger(false);
