import type { SchemaResult } from '../../schemas/schema-result';
import * as v20240910 from '../../schemas/v20240910';

// The webhook versions this service speaks (SPEC "Versioning": the version chosen per webhook fixes the request sent
// and the response accepted). Each published schema module `src/schemas/vYYYYMMDD.ts` is listed here once; the config
// refuses any other version at load.

export type OrderCancellationRequest = v20240910.OrderCancellationRequest;
export type OrderCancellationResponse = v20240910.OrderCancellationResponse;

export interface WebhookVersion {
  /** `2024-09-10`: as written in the config and sent in `x-service-webhook-version`. */
  version: string;
  orderCancellation: {
    parseRequest(input: unknown): SchemaResult<OrderCancellationRequest>;
    parseResponse(input: unknown): SchemaResult<OrderCancellationResponse>;
  };
}

const VERSIONS: readonly WebhookVersion[] = [
  {
    version: v20240910.VERSION,
    orderCancellation: {
      parseRequest: v20240910.parseOrderCancellationRequest,
      parseResponse: v20240910.parseOrderCancellationResponse,
    },
  },
];

/** The versions a webhook may name in the config, oldest first. */
export const WEBHOOK_VERSION_NAMES: readonly string[] = VERSIONS.map((v) => v.version);

export function webhookVersion(version: string): WebhookVersion | undefined {
  return VERSIONS.find((v) => v.version === version);
}
