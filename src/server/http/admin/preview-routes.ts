import { Hono } from 'hono';
import type { Previews } from '../../settings/preview-registry';
import { errorResponse } from '../error-response';

/**
 * `/preview/{token}/v0/widget/{widgetId}/…`: the chat preview's widget API (issue 22). The console's inline widget has
 * `baseUrl: {origin}/preview/{token}`, so its own requests arrive here; each opens the token (the draft as it is
 * now), and goes on to `previewApi`, the same widget API as `/v0/widget`, at the preview's widget id
 * (`<widget>~<preview id>`) instead of the widget's. That id is never reachable any other way: the public widget API
 * knows only the config file's widgets, and the id in the path here must be the token's own widget.
 */
export function previewRoutes(previews: Previews, previewApi: Hono): Hono {
  const app = new Hono();
  app.all('/:token/v0/widget/:widgetId/*', async (c) => {
    const token = c.req.param('token');
    const entry = await previews.open(token);
    // One answer for a forged, an expired and another widget's token: nothing tells them apart.
    if (!entry || entry.baseId !== c.req.param('widgetId'))
      return errorResponse(
        c,
        404,
        'unknown_preview',
        'This preview has ended or does not exist: open the preview again from the console.',
      );
    const url = new URL(c.req.url);
    const prefix = `/preview/${token}/v0/widget/${entry.baseId}/`;
    if (!url.pathname.startsWith(prefix)) return errorResponse(c, 404, 'not_found', 'No such endpoint.');
    url.pathname = `/${entry.widget.id}/${url.pathname.slice(prefix.length)}`;
    const raw = c.req.raw;
    const hasBody = raw.method !== 'GET' && raw.method !== 'HEAD';
    const forwarded = new Request(url, {
      method: raw.method,
      headers: raw.headers,
      body: hasBody ? raw.body : undefined,
      signal: raw.signal,
      // Node's fetch Request needs this for a streamed body.
      ...(hasBody && { duplex: 'half' }),
    } as RequestInit);
    // The same environment (the Node server's incoming socket): rate limits see the shopper's address.
    return previewApi.fetch(forwarded, c.env);
  });
  return app;
}
