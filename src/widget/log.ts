import { LOG_PREFIX } from '../protocol';

/** The one way the widget reports a problem to the host page: a `[service]`-prefixed console error. */
export const logError = (message: string, ...details: unknown[]): void => {
  console.error(`${LOG_PREFIX} ${message}`, ...details);
};
