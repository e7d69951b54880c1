import { err, ok, type Result } from '../protocol/result';
import { loadConfigFile } from './config/service-config';
import { parseLogLevel } from './platform/logger';
import type { StartOptions } from './start';

// `service-widget serve`'s settings from its flags and the environment (DESIGN "Running at scale": `HOST`, `PORT`,
// `DATABASE_URL`, `CONFIG`, `LOG_LEVEL`; a container sets variables, a terminal passes flags, a flag wins). Each
// wrong value is refused here, before anything opens, with one line naming the flag or variable; the secrets the
// config names by `...Env` are checked by `openRuntime` the same way. A value that may hold a secret (DATABASE_URL's
// password) is never repeated in the line.

export interface ServeFlags {
  port?: string;
  host?: string;
  'data-dir'?: string;
  config?: string;
}

/**
 * @example
 * const settings = await startSettings({ port: '0' }, 'service.config.json', process.env);
 * if (!settings.ok) process.stderr.write(`Cannot start: ${settings.error}\n`); // 'PORT must be a whole number …'
 */
export async function startSettings(
  flags: ServeFlags,
  configFile: string,
  env: NodeJS.ProcessEnv,
): Promise<Result<StartOptions, string>> {
  const port = portOf(flags.port, env.PORT);
  if (!port.ok) return port;
  const host = flags.host ?? (env.HOST || undefined);
  if (host !== undefined && !/^[^\s/]+$/.test(host))
    return err(
      `${flags.host === undefined ? 'HOST' : '--host'} must be a host name or address, got ${JSON.stringify(host)}`,
    );
  const logLevel = parseLogLevel(env.LOG_LEVEL);
  if (!logLevel.ok) return logLevel;
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl))
    return err(
      'DATABASE_URL must be a postgres:// or postgresql:// URL (its value is not shown: it may hold a password)',
    );
  const config = await loadConfigFile(configFile);
  if (!config.ok) return err(`${flags.config === undefined ? 'CONFIG' : '--config'}: ${config.error}`);
  return ok({
    config: config.value,
    port: port.value,
    host,
    logLevel: logLevel.value,
    dataDir: flags['data-dir'] ?? '.data/db',
    databaseUrl,
  });
}

/** `--port` may be 0 (a free port, for tests and scripts); `PORT` names a real one, 1-65535. Default 8787. */
function portOf(flag: string | undefined, variable: string | undefined): Result<number, string> {
  const [name, text, min] = flag !== undefined ? ['--port', flag, 0] : ['PORT', variable || '8787', 1];
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= min && port <= 65535))
    return err(`${name} must be a whole number from ${min} to 65535, got ${JSON.stringify(text)}`);
  return ok(port);
}

function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(value)) return false;
  try {
    return new URL(value).hostname !== '' || new URL(value).searchParams.has('host');
  } catch {
    return false;
  }
}

/** A start failure as one line, naming HOST or PORT when the socket could not be had. */
export function startError(error: unknown, settings: Pick<StartOptions, 'host' | 'port'>): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'EADDRINUSE') return `PORT ${settings.port} is in use on ${settings.host ?? '127.0.0.1'}`;
  if (code === 'EACCES') return `PORT ${settings.port} needs privileges this process does not have`;
  if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN')
    return `HOST ${JSON.stringify(settings.host)} is not an address of this machine (${code})`;
  return message;
}
