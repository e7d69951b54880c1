// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ActionTarget } from './action-request';
import {
  ACTION_ACCEPT,
  buildActionRequest,
  CUSTOM_ACTIONS_VERSION,
  SERVICE_VERSION,
  USER_AGENT,
} from './action-request';

const ids = { widgetId: 'demo', conversationId: 'conv-1', requestId: '3b241101-e2bb-4255-8caf-4136c566a962' };

const action = (over: Partial<ActionTarget> = {}): ActionTarget => ({
  name: 'Order status',
  method: 'POST',
  url: 'https://shop.example/api/orders',
  parameters: [
    { name: 'order_id', type: 'string', required: true },
    { name: 'quantity', type: 'number', required: true },
    { name: 'gift', type: 'boolean', required: false },
  ],
  ...over,
});

describe('buildActionRequest()', () => {
  it('sends the SPEC headers, content-type application/json and a JSON body of typed values on POST', () => {
    const req = buildActionRequest(action(), { order_id: 'A-1', quantity: 2.5, gift: false }, ids);
    expect(req).toEqual({
      ok: true,
      value: {
        method: 'POST',
        url: 'https://shop.example/api/orders',
        headers: {
          'x-service-custom-actions-version': '2024-11-01',
          'x-service-widget-id': 'demo',
          'x-service-conversation-id': 'conv-1',
          'content-type': 'application/json',
          accept: ACTION_ACCEPT,
          'user-agent': USER_AGENT,
        },
        body: '{"order_id":"A-1","quantity":2.5,"gift":false}',
      },
    });
    expect(CUSTOM_ACTIONS_VERSION).toBe('2024-11-01');
  });

  it('sends the answer language as Accept-Language, and no such header without one', () => {
    const de = buildActionRequest(action(), { order_id: 'A-1', quantity: 1 }, { ...ids, language: 'de' });
    expect(de.ok && de.value.headers['accept-language']).toBe('de');
    const none = buildActionRequest(action(), { order_id: 'A-1', quantity: 1 }, ids);
    expect(none.ok && Object.keys(none.value.headers)).not.toContain('accept-language');
  });

  it.each([
    ['a header line after CR LF', 'de\r\nX-Evil: 1'],
    ['a comma list', 'de, en;q=0.5'],
    ['an oversize tag', `de-${'a'.repeat(300)}`],
    ['garbage', '<script>'],
    ['an empty string', ''],
  ])('never puts %s into Accept-Language: the header is left out', (_name, language) => {
    const req = buildActionRequest(action(), { order_id: 'A-1', quantity: 1 }, { ...ids, language });
    expect(req.ok).toBe(true);
    if (!req.ok) return;
    expect(req.value.headers['accept-language']).toBeUndefined();
    expect(Object.values(req.value.headers).join('')).not.toMatch(/[\r\n]|X-Evil/);
  });

  it('names the package version in the user agent', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(SERVICE_VERSION).toBe(pkg.version);
    expect(USER_AGENT).toMatch(/^service-widget\/\d+\.\d+\.\d+/);
  });

  it('sends parameters as query parameters after the URL’s own query on GET, with no body and no content-type', () => {
    const req = buildActionRequest(
      action({ method: 'GET', url: 'https://shop.example/api/orders?lang=de&x=%7E#top' }),
      { order_id: 'A 1&b=2', quantity: 3, gift: true },
      ids,
    );
    expect(req.ok && req.value).toEqual({
      method: 'GET',
      url: 'https://shop.example/api/orders?lang=de&x=%7E&order_id=A+1%26b%3D2&quantity=3&gift=true',
      headers: expect.not.objectContaining({ 'content-type': expect.anything() }),
    });
    expect(req.ok && 'body' in req.value).toBe(false);
  });

  it('leaves out an optional parameter without a value, and never forwards a parameter the action does not define', () => {
    const req = buildActionRequest(
      action(),
      { order_id: 'A-1', quantity: 1, api_key: 'secret', gift: undefined },
      ids,
    );
    expect(req.ok && JSON.parse(req.value.body ?? '')).toEqual({ order_id: 'A-1', quantity: 1 });
    const get = buildActionRequest(
      action({ method: 'GET' }),
      { order_id: 'A-1', quantity: 1, api_key: 's' },
      ids,
    );
    expect(get.ok && get.value.url).toBe('https://shop.example/api/orders?order_id=A-1&quantity=1');
  });

  it('fills a path placeholder with the percent-encoded value and leaves that parameter out of the body', () => {
    const req = buildActionRequest(
      action({ url: 'https://shop.example/api/orders/{order_id}/items' }),
      { order_id: 'a/b?c#d@e', quantity: 1 },
      ids,
    );
    expect(req.ok && req.value.url).toBe('https://shop.example/api/orders/a%2Fb%3Fc%23d%40e/items');
    expect(req.ok && req.value.body).toBe('{"quantity":1}');
  });

  it('fills placeholders in the path and the query on GET and leaves them out of the added query', () => {
    const req = buildActionRequest(
      action({ method: 'GET', url: 'https://shop.example/o/{order_id}?n={quantity}&v=1' }),
      { order_id: 'ü €', quantity: 7, gift: true },
      ids,
    );
    expect(req.ok && req.value.url).toBe('https://shop.example/o/%C3%BC%20%E2%82%AC?n=7&v=1&gift=true');
  });

  it.each([
    ['@evil.test', 'https://shop.example/o/%40evil.test'],
    ['//evil.test/x', 'https://shop.example/o/%2F%2Fevil.test%2Fx'],
    ['../../admin', 'https://shop.example/o/..%2F..%2Fadmin'],
    ['x#frag', 'https://shop.example/o/x%23frag'],
    ['x?q=1', 'https://shop.example/o/x%3Fq%3D1'],
    ['\\\\evil.test', 'https://shop.example/o/%5C%5Cevil.test'],
    [':443@evil.test', 'https://shop.example/o/%3A443%40evil.test'],
  ])('keeps the host when a placeholder value is %j', (value, url) => {
    const req = buildActionRequest(
      action({ url: 'https://shop.example/o/{order_id}' }),
      { order_id: value, quantity: 1 },
      ids,
    );
    expect(req.ok && req.value.url).toBe(url);
    expect(req.ok && new URL(req.value.url).host).toBe('shop.example');
  });

  it.each([
    ['.', 'https://shop.example/o/{order_id}/x'],
    ['..', 'https://shop.example/o/{order_id}/x'],
    ['..', 'https://shop.example/o/{order_id}'],
    ['.', 'https://shop.example/o/{order_id}{order_id}'],
  ])('refuses %j as a whole path segment of %s, which would walk up the path', (value, url) => {
    const req = buildActionRequest(action({ url }), { order_id: value, quantity: 1 }, ids);
    expect(req).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
  });

  it('lets dots inside a segment or in the query through, and encodes a literal %2e', () => {
    const inside = buildActionRequest(
      action({ url: 'https://shop.example/o/v{order_id}?q={order_id}' }),
      { order_id: '..', quantity: 1 },
      ids,
    );
    expect(inside.ok && inside.value.url).toBe('https://shop.example/o/v..?q=..');
    const encoded = buildActionRequest(
      action({ url: 'https://shop.example/o/{order_id}/x' }),
      { order_id: '%2e%2e', quantity: 1 },
      ids,
    );
    expect(encoded.ok && encoded.value.url).toBe('https://shop.example/o/%252e%252e/x');
  });

  it.each([
    'https://{order_id}.shop.example/o',
    'https://shop.example:{order_id}/o',
    'https://{order_id}@shop.example/o',
    'https://shop.example{order_id}',
  ])('refuses a placeholder outside the path and query: %s', (url) => {
    const req = buildActionRequest(action({ url }), { order_id: 'x', quantity: 1 }, ids);
    expect(req).toMatchObject({ ok: false, error: { code: 'invalid_url' } });
  });

  it('fails with placeholder_undefined when a placeholder names no defined parameter', () => {
    const req = buildActionRequest(
      action({ url: 'https://shop.example/o/{orderId}' }),
      { orderId: '1', order_id: '1', quantity: 1 },
      ids,
    );
    expect(req).toEqual({
      ok: false,
      error: {
        code: 'placeholder_undefined',
        message: 'the URL placeholder {orderId} is not a parameter of the action',
      },
    });
  });

  it('fails with missing_parameter for a placeholder or required parameter without a value', () => {
    const optionalInUrl = action({ url: 'https://shop.example/o/{gift}' });
    expect(buildActionRequest(optionalInUrl, { order_id: '1', quantity: 1 }, ids)).toMatchObject({
      ok: false,
      error: { code: 'missing_parameter', message: 'parameter gift has no value' },
    });
    expect(buildActionRequest(action(), { order_id: '1', quantity: null }, ids)).toMatchObject({
      ok: false,
      error: { code: 'missing_parameter' },
    });
  });

  it.each([
    ['quantity', '2'],
    ['quantity', Number.NaN],
    ['quantity', Number.POSITIVE_INFINITY],
    ['gift', 'true'],
    ['gift', 1],
    ['order_id', 42],
    ['order_id', true],
  ])('fails with invalid_parameter when %s is %j', (name, value) => {
    const params = { order_id: 'A-1', quantity: 1, gift: true, [name]: value };
    expect(buildActionRequest(action(), params, ids)).toMatchObject({
      ok: false,
      error: { code: 'invalid_parameter' },
    });
  });

  it('reads only own properties of the parameters, never inherited ones', () => {
    const req = buildActionRequest(
      action({ parameters: [{ name: 'constructor', type: 'string', required: false }] }),
      {},
      ids,
    );
    expect(req.ok && req.value.body).toBe('{}');
  });

  it('treats braces with a non-identifier inside as a placeholder that is not defined', () => {
    const req = buildActionRequest(
      action({ url: 'https://shop.example/o/{order-id}' }),
      { order_id: '1', quantity: 1 },
      ids,
    );
    expect(req).toMatchObject({ ok: false, error: { code: 'placeholder_undefined' } });
  });
});
