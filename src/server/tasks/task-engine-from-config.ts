import { searchProducts } from '../catalog/search/search-products';
import type { ServiceConfig } from '../config';
import type { Db } from '../storage/db';
import { createLocalTaskEngine } from './local-task-engine';
import { createOpenAiTaskEngine } from './openai-task-engine';
import type { TaskEngine } from './task-engine';

/** The task engine of the config's `engine`: the same choice, and the same API key variable, as the chat's. */
export function taskEngineFromConfig(
  engine: ServiceConfig['engine'],
  db: Db,
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; value: TaskEngine } | { ok: false; error: string } {
  if (engine.type === 'local')
    return {
      ok: true,
      value: createLocalTaskEngine((widgetId, query) => searchProducts(db, widgetId, query)),
    };
  const apiKey = env[engine.apiKeyEnv];
  if (!apiKey)
    return { ok: false, error: `engine.apiKeyEnv: the environment variable ${engine.apiKeyEnv} is not set` };
  return {
    ok: true,
    value: createOpenAiTaskEngine({ baseUrl: engine.baseUrl, apiKey, models: engine.models }),
  };
}
