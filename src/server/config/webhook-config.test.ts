// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseConfig } from './service-config';

// Issue #7: per widget `webhooks: [{ kind, url, version }]`; the version is required and must be one the service
// speaks, refused at config load with a message that names the field.

const withWebhooks = (webhooks: unknown) =>
  parseConfig({ adminKey: 'admin-key-123456', widgets: [{ id: 'shop', allowedOrigins: ['*'], webhooks }] });
const hook = { kind: 'order-cancellation', url: 'https://shop.example/hooks/cancel', version: '2024-09-10' };

describe('config: widgets[].webhooks', () => {
  it('accepts an order-cancellation webhook of a known version, and defaults to none', () => {
    const parsed = withWebhooks([hook]);
    expect(parsed.ok && parsed.value.widgets[0].webhooks).toStrictEqual([hook]);
    const none = parseConfig({
      adminKey: 'admin-key-123456',
      widgets: [{ id: 'shop', allowedOrigins: ['*'] }],
    });
    expect(none.ok && none.value.widgets[0].webhooks).toStrictEqual([]);
  });

  it('refuses an unknown version, naming the field and the versions it knows', () => {
    expect(withWebhooks([{ ...hook, version: '2023-01-01' }])).toStrictEqual({
      ok: false,
      error:
        'widgets[0].webhooks[0].version: unknown webhook version "2023-01-01"; this service speaks 2024-09-10',
    });
    expect(withWebhooks([{ ...hook, version: 'v20240910' }])).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^widgets\[0\]\.webhooks\[0\]\.version: unknown webhook version "v20240910"/,
      ),
    });
  });

  it('refuses a webhook without a version, or with null for it', () => {
    const { version: _v, ...noVersion } = hook;
    expect(withWebhooks([noVersion])).toStrictEqual({
      ok: false,
      error: 'widgets[0].webhooks[0].version: is required',
    });
    expect(withWebhooks([{ ...hook, version: null }])).toStrictEqual({
      ok: false,
      error: 'widgets[0].webhooks[0].version: is required: one of 2024-09-10',
    });
  });

  it('refuses an unknown kind, a URL that is not http(s), unknown fields and two webhooks of one kind', () => {
    expect(withWebhooks([{ ...hook, kind: 'refund' }])).toStrictEqual({
      ok: false,
      error: 'widgets[0].webhooks[0].kind: must be one of: order-cancellation',
    });
    for (const url of ['javascript:alert(1)', 'ftp://shop.example/x', '/hooks/cancel']) {
      expect(withWebhooks([{ ...hook, url }])).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^widgets\[0\]\.webhooks\[0\]\.url: must be an/),
      });
    }
    expect(withWebhooks([{ ...hook, secret: 'x' }])).toStrictEqual({
      ok: false,
      error: 'widgets[0].webhooks[0].secret: is not a known field',
    });
    expect(withWebhooks([hook, { ...hook, url: 'https://other.example/' }])).toStrictEqual({
      ok: false,
      error: 'widgets[0].webhooks: at most one webhook per kind',
    });
  });
});
