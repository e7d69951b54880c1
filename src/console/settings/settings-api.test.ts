import { describe, expect, it } from 'vitest';
import { createSettingsApi } from './settings-api';

const answer = (status: number, body: string) => async () =>
  new Response(body, { status, headers: { 'content-type': 'application/json' } });

describe('settings API client', () => {
  it("reads a refused save's issues, keeping only well-formed ones", async () => {
    const api = createSettingsApi(
      answer(
        400,
        JSON.stringify({
          error: {
            code: 'invalid_settings',
            message: 'The settings are not valid.',
            issues: [{ path: 'title', message: 'must not be empty' }, { path: 3 }, 'x', null],
          },
        }),
      ) as unknown as typeof fetch,
    );
    const res = await api.save('k', 'demo', { baseVersion: 1, settings: { allowedOrigins: ['*'] } });
    expect(res).toEqual({
      ok: false,
      error: {
        status: 400,
        code: 'invalid_settings',
        message: 'The settings are not valid.',
        issues: [{ path: 'title', message: 'must not be empty' }],
      },
    });
  });

  it('reports an answer without JSON by its status, and an unreachable service as network', async () => {
    const broken = createSettingsApi(answer(502, '<html>bad gateway</html>') as unknown as typeof fetch);
    expect(await broken.get('k', 'demo')).toMatchObject({
      ok: false,
      error: { status: 502, code: 'http_error' },
    });
    const down = createSettingsApi((async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch);
    expect(await down.versions('k', 'demo')).toMatchObject({
      ok: false,
      error: { status: 0, code: 'network' },
    });
  });

  it('sends PUT with the base version and POST rollback to the widget’s paths, the key as a Bearer header', async () => {
    const seen: string[] = [];
    const api = createSettingsApi((async (url: string, init: RequestInit) => {
      seen.push(`${init.method} ${url} ${new Headers(init.headers).get('authorization')} ${init.body ?? ''}`);
      return new Response('{"version":2}', { status: 200 });
    }) as unknown as typeof fetch);
    await api.save('k', 'a/b', { baseVersion: 1, settings: { allowedOrigins: [] } });
    await api.rollback('k', 'a/b', 1);
    await api.version('k', 'a/b', 3);
    expect(seen).toEqual([
      'PUT /v0/admin/widgets/a%2Fb/settings Bearer k {"baseVersion":1,"settings":{"allowedOrigins":[]}}',
      'POST /v0/admin/widgets/a%2Fb/settings/rollback Bearer k {"version":1}',
      'GET /v0/admin/widgets/a%2Fb/settings/versions/3 Bearer k ',
    ]);
  });
});
