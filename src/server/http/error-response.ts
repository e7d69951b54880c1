import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one error shape of the service (DESIGN: `{ error: { code, message } }`). */
export interface ErrorBody {
  error: { code: string; message: string };
}

export const errorResponse = (
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
): Response => c.json<ErrorBody>({ error: { code, message } }, status);
