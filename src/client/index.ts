/**
 * Typed clients for integrators (DESIGN: `src/client/`, imports protocol only). Node 20+ and browsers: they need
 * nothing but `fetch`, `AbortController` and `URL`. `verifyServiceSignature` checks the service's signed calls
 * (node:crypto, taken at call time); `verifyServiceSignatureAsync` does the same with Web Crypto alone.
 */

export {
  SERVICE_REQUEST_ID_HEADER,
  SERVICE_SIGNATURE_HEADER,
  SERVICE_TIMESTAMP_HEADER,
} from '../protocol/signature';
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
export {
  type HeaderRecord,
  type VerifyServiceSignatureInput,
  verifyServiceSignature,
  verifyServiceSignatureAsync,
} from './verify-service-signature';
