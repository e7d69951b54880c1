import type { ServiceConfig } from './service-config';

/**
 * DESIGN "Where each new setting lives": development switches and plain-text keys keep working whatever NODE_ENV says,
 * so a merchant can run the demo config anywhere; the service says so at start, once per switch, so that nobody runs
 * one in production without being told. The keys themselves never appear in the warnings.
 */
export function configWarnings(config: ServiceConfig): string[] {
  const warnings: string[] = [];
  if (config.allowHttpLoopback) {
    warnings.push(
      'allowHttpLoopback is on: custom actions, webhooks, feeds and knowledge URLs may call http:// and loopback addresses (demo and tests only)',
    );
  }
  // The service keeps only their hashes, but the file holds them in the clear: whoever reads it has the keys.
  const plain = [
    ...(config.adminKey === undefined ? [] : ['adminKey']),
    ...config.taskApiKeys.map((_, i) => `taskApiKeys[${i}].key`),
    ...config.agents.flatMap((agent, i) => (agent.key === undefined ? [] : [`agents[${i}].key`])),
    ...config.widgets.flatMap((w, i) =>
      w.productDataApiKeys.map((_, k) => `widgets[${i}].productDataApiKeys[${k}]`),
    ),
  ];
  if (plain.length > 0)
    warnings.push(
      `plain-text keys in the config file (${plain.join(', ')}): keep the file readable by the service alone`,
    );
  return warnings;
}
