// What the merchant types into the dashboard for the demo integrator: the custom action definitions and the feed,
// as service.config.json entries (DESIGN "Service configuration"). demo-servers.ts puts them into the demo config.
// Names and descriptions are written for the local engine's keyword matching: each action has words of its own
// ("order", "status", "tracking"; "product", "catalog", "SKU"; "hours", "opening", "hotline").

export type OrderFormat = 'json' | 'xml';

/**
 * The three demo actions for an integrator at `integratorUrl` (no trailing slash). With `orderFormat: 'xml'` the
 * "Get order status" action calls `/orders/{order_id}.xml` instead; name and description stay the same, so the
 * engine's choice does not depend on the format.
 * @example
 * integratorActions('http://127.0.0.1:4100').map((a) => a.name);
 * // → ['Get order status', 'Look up a product', 'Store hours']
 */
export function integratorActions(integratorUrl: string, orderFormat: OrderFormat = 'json') {
  return [
    {
      name: 'Get order status',
      description: "Looks up an order's status, items and tracking by its order number.",
      method: 'GET' as const,
      url: `${integratorUrl}/orders/{order_id}${orderFormat === 'xml' ? '.xml' : ''}`,
      parameters: [
        { name: 'order_id', type: 'string' as const, description: 'The order number' },
        // A guest proves the order is theirs with its email; a signed-in customer needs none (issue 31 item 7).
        {
          name: 'email',
          type: 'string' as const,
          required: false,
          description: 'The email address the order was placed with (not needed for signed-in customers)',
        },
      ],
      enabled: true,
    },
    {
      name: 'Look up a product',
      description: 'Finds a product in the catalog by name or SKU.',
      method: 'POST' as const,
      url: `${integratorUrl}/products/lookup`,
      parameters: [{ name: 'query', type: 'string' as const, description: 'The product name or SKU' }],
      enabled: true,
    },
    {
      name: 'Store hours',
      description: 'Opening hours of the shop and the hotline.',
      method: 'GET' as const,
      url: `${integratorUrl}/store-hours`,
      parameters: [],
      enabled: true,
    },
  ];
}

/** The demo product feed: the integrator's schema.org feed, refreshed hourly. */
export function integratorFeeds(integratorUrl: string, token?: string) {
  return [
    {
      url: `${integratorUrl}/feed.json`,
      format: 'schema.org' as const,
      refreshMinutes: 60,
      ...(token === undefined ? {} : { token }),
    },
  ];
}

/** Issue #7: the demo integrator's order-cancellation webhook, version 2024-09-10. */
export function integratorWebhooks(integratorUrl: string) {
  return [
    {
      kind: 'order-cancellation' as const,
      url: `${integratorUrl}/webhooks/order-cancellation`,
      version: '2024-09-10',
    },
  ];
}
