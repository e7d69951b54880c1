/**
 * Typed clients for integrators (DESIGN: `src/client/`, imports protocol only). Node 20+ and browsers: they need
 * nothing but `fetch`, `AbortController` and `URL`.
 */
export {
  type BatchPushFailure,
  type BatchPushResult,
  type CallOptions,
  type FailedProduct,
  type FieldError,
  type GetProductResult,
  MAX_BATCH_SIZE,
  type NewProduct,
  type NewProductData,
  ProductDataClient,
  type ProductDataClientOptions,
  type ProductUpdate,
  type PushErrorKind,
  type PushFailure,
  type PushResult,
  type PushSuccess,
} from './product-data-client';
export type { RetryInfo, RetryReason } from './request';
export type { ResultOf } from './result-type';
export {
  type CreateTaskResult,
  type TaskCallFailure,
  TaskClient,
  type TaskClientOptions,
  type TaskErrorKind,
  type TaskOutcome,
  type TaskRef,
  type TaskState,
  type WaitOptions,
} from './task-client';
