/**
 * The public API's answers and request bodies as the console reads and sends them: the generated OpenAPI
 * types (packages/client/src/generated/openapi.ts, from docs/openapi.json). Types only: nothing of the
 * client package (openapi-fetch, Node helpers) goes into the bundle.
 */
import type { components } from '../../../../packages/client/src/generated/openapi';

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBodyDto'];
export type Me = Schemas['MeDto'];
export type JobList = Schemas['JobListDto'];
export type JobSummary = Schemas['JobSummaryDto'];
/** GET /api/v2/jobs/{id} or, for a v1 job, GET /api/v1/status/{id}: the job page reads what both have. */
export type JobDetail = Schemas['V2JobDto'] | Schemas['StatusResponseDto'];
export type ApiKeyList = Schemas['ApiKeyListDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type ApiKeyCreated = Schemas['ApiKeyCreatedDto'];
export type ShowcaseList = Schemas['ShowcaseListDto'];
export type ShowcaseSummary = Schemas['ShowcaseSummaryDto'];
export type ShowcaseCreated = Schemas['ShowcaseCreatedDto'];
export type CreateShowcaseRequest = Schemas['CreateShowcaseRequestDto'];
export type UpdateShowcaseRequest = Schemas['UpdateShowcaseRequestDto'];
/**
 * GET /api/v2/showcases/{id}. The answer also has the showcase's `units` (showcase-views.ts), which the
 * response DTO does not list yet: added here until it does.
 */
export type Showcase = Schemas['ShowcaseDto'] & { units?: 'in' | 'cm' | null };
export type ShowcaseItem = Schemas['ShowcaseItemDto'];
export type ItemVariant = Schemas['ItemVariantDto'];
export type ItemRebuild = Schemas['ItemRebuildDto'];
export type UpdateItemRequest = Schemas['UpdateItemRequestDto'];
export type ItemVariantRequest = Schemas['ItemVariantRequestDto'];
export type ShowcaseItemRequest = Schemas['ShowcaseItemRequestDto'];
export type ImportPreview = Schemas['ImportPreviewDto'];
export type ImportRun = Schemas['ImportDto'];
export type Wall = Schemas['WallDto'];
export type WallList = Schemas['WallListDto'];
export type WallLayout = Schemas['WallLayoutDto'];
export type WallCreated = Schemas['WallCreatedDto'];
export type WallRebuild = Schemas['WallRebuildDto'];
export type WallItem = Schemas['WallItemDto'];
export type WallPlace = Schemas['WallPlaceDto'];
export type CreateWallRequest = Schemas['CreateWallRequestDto'];
export type UpdateWallRequest = Schemas['UpdateWallRequestDto'];
export type Usage = Schemas['UsageDto'];
export type LedgerEntry = Schemas['LedgerEntryDto'];
export type Analytics = Schemas['AnalyticsDto'];
export type AnalyticsGroup = Schemas['AnalyticsGroupDto'];
export type AnalyticsTotals = Schemas['AnalyticsTotalsDto'];
export type PriceList = Schemas['PriceListDto'];
export type ConvertRequest = Schemas['ConvertRequestDto'];
export type ConvertResponse = Schemas['ConvertResponseDto'];
export type AnimatedArRequest = Schemas['AnimatedArRequestDto'];
export type AnimatedArCreated = Schemas['AnimatedArCreatedDto'];
export type WebhookDeliveryList = Schemas['WebhookDeliveryListDto'];
export type AdminUserList = Schemas['AdminUserListDto'];
export type AdminUser = Schemas['AdminUserDto'];
export type AdminJobList = Schemas['AdminJobListDto'];
export type AdminQueue = Schemas['AdminQueueDto'];
export type Invite = Schemas['InviteDto'];
export type Connection = Schemas['ConnectionDto'];
export type ConnectionList = Schemas['ConnectionListDto'];
export type ConnectionTest = Schemas['ConnectionTestDto'];
export type CreateConnectionRequest = Schemas['CreateConnectionRequestDto'];
export type UpdateConnectionRequest = Schemas['UpdateConnectionRequestDto'];
/** A connection's frames table: option value → frame preset (null: no frame). */
export type ConnectionFrames = Connection['frames'];
/** POST /api/v2/connections/{id}/sync (202): the import the sync runs, read with GET /api/v2/imports/{id}. */
export type ConnectionSyncStarted = Schemas['ConnectionSyncDto'];
