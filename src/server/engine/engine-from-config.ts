import type { ServiceConfig } from '../config/service-config';
import type { AssistantEngine } from '../core/engine';
import { createLocalEngine } from './local/local-engine';
import { createOpenAiEngine } from './openai/create-openai-engine';
import { isLoopbackBaseUrl } from './openai/model-fetch';

export type ModelTier = 'fast' | 'smart' | 'super-smart';

/**
 * The engine the config names. For `openai` the API key is read from the environment variable `apiKeyEnv` names, so
 * no secret sits in the config file; a missing key stops the service at start rather than failing every chat.
 */
export function engineFromConfig(
  engine: ServiceConfig['engine'],
  tier: ModelTier = 'smart',
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; value: AssistantEngine } | { ok: false; error: string } {
  if (engine.type === 'local') return { ok: true, value: createLocalEngine() };
  const apiKey = engineApiKey(engine, env);
  if (!apiKey.ok) return apiKey;
  // The guard would refuse every request (model-fetch.ts); saying so at start beats failing every chat.
  if (new URL(engine.baseUrl).protocol === 'http:' && !isLoopbackBaseUrl(engine.baseUrl)) {
    return {
      ok: false,
      error:
        'engine.baseUrl: http: is allowed only for a model server on this machine (localhost, 127.0.0.1, [::1]); ' +
        'use https:',
    };
  }
  return {
    ok: true,
    value: createOpenAiEngine({ baseUrl: engine.baseUrl, apiKey: apiKey.value, model: engine.models[tier] }),
  };
}

/** The model API key the config's engine needs (`''` for the local engine), or why it is missing. */
export function engineApiKey(
  engine: ServiceConfig['engine'],
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; value: string } | { ok: false; error: string } {
  if (engine.type === 'local') return { ok: true, value: '' };
  const apiKey = env[engine.apiKeyEnv];
  if (!apiKey)
    return { ok: false, error: `engine.apiKeyEnv: the environment variable ${engine.apiKeyEnv} is not set` };
  return { ok: true, value: apiKey };
}
