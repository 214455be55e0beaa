export { ImageArClient } from './client';
export type {
  AddPicturesRequest, AnimatedArCreated, ApiKey, ApiKeyCreated, CreateKeyRequest, JobList, JobListQuery, ShowcaseList, UpdateShowcaseRequest, AnimatedArRequest, AnyJob, ConvertRequest, ConvertResponse, CreateShowcaseRequest, ErrorResponse, ImageArClientOptions, Me,
  PicturesAdded, PriceList, RequestOptions, Showcase, ShowcaseCreated, ShowcaseItem, UploadFile, UploadItem, Usage, V1JobStatus, V1Result, V2Job, WaitForJobOptions, WebhookSecret,
} from './client';
export { ImageArError, JobFailedError, JobTimeoutError, WebhookVerificationError, type ApiErrorBody } from './errors';
export { verifyWebhook, type V1Callback, type V2JobCallback, type VerifyWebhookOptions, type WebhookHeaders, type WebhookPayload } from './webhooks';
export type { components, operations, paths } from './generated/openapi';
