import type { ServiceConfig } from '../config/service-config';
import { createLocalTaskEngine } from './local-task-engine';
import { createOpenAiTaskEngine } from './openai-task-engine';
import type { TaskEngine } from './task-engine';

/**
 * The task engine of the config's `engine`: the same choice as the chat's. `apiKey` is the one `engineFromConfig`'s
 * check already read (an `openai` engine without a key never gets this far).
 */
export function taskEngineFromConfig(
  engine: ServiceConfig['engine'],
  search: Parameters<typeof createLocalTaskEngine>[0],
  apiKey: string,
): TaskEngine {
  if (engine.type === 'local') return createLocalTaskEngine(search);
  return createOpenAiTaskEngine({ baseUrl: engine.baseUrl, apiKey, models: engine.models });
}
