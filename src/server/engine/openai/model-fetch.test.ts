// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, engineError, runTurn } from '../../testing/engine-test-harness';
import { type FakeOpenAiServer, startFakeOpenAiServer, textAnswer } from '../../testing/fake-openai-server';
import { STAND_IN_PUBLIC_ADDRESS, testCertificate } from '../../testing/test-servers';
import { type GuardForTests, isLoopbackBaseUrl } from './model-fetch';

// Where the SDK's requests may go (DESIGN "The openai engine": SSRF-safe fetch where the base URL is not loopback).
// The model stands in for a public host (`shop.test`, resolved to a public address and dialled at 127.0.0.1, with a
// test certificate), so a request the guard let through would really reach it and be recorded.

describe('isLoopbackBaseUrl()', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', true],
    ['http://localhost:8000/v1', true],
    ['http://LOCALHOST:8000/v1', true],
    ['http://[::1]:8000/v1', true],
    ['http://127.8.9.10/v1', true],
    ['http://2130706433/v1', true],
    ['https://api.openai.com/v1', false],
    ['http://10.0.0.8:8000/v1', false],
    ['http://169.254.169.254/v1', false],
    ['http://[::ffff:10.0.0.1]/v1', false],
    ['http://localhost.evil.example/v1', false],
    ['http://api.localhost/v1', false],
    ['not a url', false],
  ])('%s → %s', (url, loopback) => {
    expect(isLoopbackBaseUrl(url)).toBe(loopback);
  });
});

describe('openai engine: the SSRF guard for a model that is not on this machine', () => {
  let tlsModel: FakeOpenAiServer;
  let plainModel: FakeOpenAiServer;
  let ca: string;
  beforeAll(async () => {
    const certificate = await testCertificate();
    ca = certificate.cert;
    tlsModel = await startFakeOpenAiServer({ tls: { key: certificate.private, cert: certificate.cert } });
    plainModel = await startFakeOpenAiServer();
  });
  afterAll(async () => {
    await tlsModel.close();
    await plainModel.close();
  });

  const resolvingTo =
    (address: string): GuardForTests['resolve'] =>
    async () => [{ address, family: address.includes(':') ? 6 : 4 }];
  const guard = (address = STAND_IN_PUBLIC_ADDRESS): GuardForTests => ({
    resolve: resolvingTo(address),
    dialForTests: () => '127.0.0.1',
    ca,
  });

  it('streams from a public https model through the guard, key and body as the SDK sends them', async () => {
    tlsModel.enqueue(textAnswer('Hello ', 'from afar.'));
    const before = tlsModel.requests.length;
    const h = runTurn(tlsModel, {
      engine: { baseUrl: `https://shop.test:${tlsModel.port}/v1`, guardForTests: guard() },
    });
    await h.result;
    expect(h.text()).toBe('Hello from afar.');
    const request = tlsModel.requests[before];
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.host).toBe(`shop.test:${tlsModel.port}`);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(tlsModel.body(before).stream).toBe(true);
  });

  it.each([
    ['a private network address', '10.0.0.8'],
    ['the cloud metadata address', '169.254.169.254'],
    ['a public name rebound to loopback', '127.0.0.1'],
  ])('attack: a model host resolving to %s is refused before anything is sent', async (_, address) => {
    const before = tlsModel.requests.length;
    const error = await engineError(
      runTurn(tlsModel, {
        engine: {
          baseUrl: `https://shop.test:${tlsModel.port}/v1`,
          guardForTests: guard(address),
          maxRetries: 0,
        },
      }).result,
    );
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toBe('could not reach the model (address_not_allowed)');
    expect(tlsModel.requests.length).toBe(before);
  });

  it('attack: plain http to a host that is not loopback is refused, the key never sent in the clear', async () => {
    const before = plainModel.requests.length;
    const error = await engineError(
      runTurn(plainModel, {
        engine: { baseUrl: `http://shop.test:${plainModel.port}/v1`, guardForTests: guard(), maxRetries: 0 },
      }).result,
    );
    expect(error.message).toBe('could not reach the model (scheme_not_allowed)');
    expect(plainModel.requests.length).toBe(before);
  });

  it("attack: the model's redirect to a loopback service is refused at that hop", async () => {
    tlsModel.enqueue({
      kind: 'error',
      status: 307,
      headers: { location: `http://127.0.0.1:${plainModel.port}/v1/chat/completions` },
    });
    const plainBefore = plainModel.requests.length;
    const error = await engineError(
      runTurn(tlsModel, {
        engine: { baseUrl: `https://shop.test:${tlsModel.port}/v1`, guardForTests: guard(), maxRetries: 0 },
      }).result,
    );
    expect(error.message).toBe('could not reach the model (scheme_not_allowed)');
    expect(plainModel.requests.length).toBe(plainBefore);
  });
});

describe('openai engine: a model on this machine', () => {
  let model: FakeOpenAiServer;
  let elsewhere: FakeOpenAiServer;
  beforeAll(async () => {
    model = await startFakeOpenAiServer();
    elsewhere = await startFakeOpenAiServer();
  });
  afterAll(async () => {
    await model.close();
    await elsewhere.close();
  });

  it('is reached without the guard (http, loopback) and follows no redirect', async () => {
    elsewhere.enqueue(textAnswer('should not be asked'));
    model.enqueue({
      kind: 'error',
      status: 307,
      headers: { location: `${elsewhere.baseUrl}/chat/completions` },
    });
    const error = await engineError(runTurn(model, { engine: { maxRetries: 0 } }).result);
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toBe('the model endpoint refused the request (HTTP 307)');
    expect(model.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
