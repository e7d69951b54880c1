// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../config/service-config';
import { engineFromConfig } from './engine-from-config';

const openai = (baseUrl: string): ServiceConfig['engine'] => ({
  type: 'openai',
  baseUrl,
  apiKeyEnv: 'MODEL_KEY',
  models: { fast: 'f', smart: 's', 'super-smart': 'x' },
});
const env = { MODEL_KEY: 'sk-test' };

describe('engineFromConfig()', () => {
  it.each([
    'https://api.openai.com/v1',
    'http://127.0.0.1:11434/v1',
    'http://localhost:8000/v1',
    'http://[::1]:1/v1',
  ])('accepts the openai engine at %s', (baseUrl) => {
    expect(engineFromConfig(openai(baseUrl), 'smart', env).ok).toBe(true);
  });

  it.each(['http://10.0.0.8:8000/v1', 'http://models.example/v1'])(
    'refuses plain http to %s at start, since the SSRF guard would refuse every request',
    (baseUrl) => {
      expect(engineFromConfig(openai(baseUrl), 'smart', env)).toEqual({
        ok: false,
        error:
          'engine.baseUrl: http: is allowed only for a model server on this machine (localhost, 127.0.0.1, [::1]); ' +
          'use https:',
      });
    },
  );

  it('names the missing key variable first', () => {
    expect(engineFromConfig(openai('http://10.0.0.8/v1'), 'smart', {})).toEqual({
      ok: false,
      error: 'engine.apiKeyEnv: the environment variable MODEL_KEY is not set',
    });
  });
});
