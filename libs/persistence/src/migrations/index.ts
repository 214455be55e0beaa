import { CreateJobs1763683200000 } from './1763683200000-create-jobs';
import { EmbedsAndWebhooks1763769600000 } from './1763769600000-embeds-and-webhooks';
import { AccountsAndLedger1763856000000 } from './1763856000000-accounts-and-ledger';
import { IdempotencyKeys1763942400000 } from './1763942400000-idempotency-keys';
import { Showcases1764028800000 } from './1764028800000-showcases';
import { JobCheckpoints1764115200000 } from './1764115200000-job-checkpoints';
import { OwnerUnfinishedJobs1764201600000 } from './1764201600000-owner-unfinished-jobs';
import { ShowcasePresentationDefaults1764288000000 } from './1764288000000-showcase-presentation-defaults';
import { JobCancelRequests1764378000000 } from './1764378000000-job-cancel-requests';
import { JobRequestIds1764464400000 } from './1764464400000-job-request-ids';
import { RetentionAndDeletion1764550800000 } from './1764550800000-retention-and-deletion';
import { KeyScopes1764637200000 } from './1764637200000-key-scopes';
import { ConsoleSessions1764723600000 } from './1764723600000-console-sessions';
import { JobStageTimings1764896400000 } from './1764896400000-job-stage-timings';
import { ShowcaseIndexable1764810000000 } from './1764810000000-showcase-indexable';
import { JobCreatingKeys1764982800000 } from './1764982800000-job-creating-keys';
import { CatalogueItems1765069200000 } from './1765069200000-catalogue-items';
import { ItemVariants1765155600000 } from './1765155600000-item-variants';
import { Analytics1765242000000 } from './1765242000000-analytics';
import { ShowcaseWalls1765328400000 } from './1765328400000-showcase-walls';
import { AnalyticsJobs1765414800000 } from './1765414800000-analytics-jobs';
import { VisitorWallRetention1765501200000 } from './1765501200000-visitor-wall-retention';
import { ShopConnections1765587600000 } from './1765587600000-shop-connections';
import { ShopWebhookDeliveries1765674000000 } from './1765674000000-shop-webhook-deliveries';

/** The one migration set, shared by PGlite and Postgres. Append new migrations here. */
export const MIGRATIONS = [
  CreateJobs1763683200000,
  EmbedsAndWebhooks1763769600000,
  AccountsAndLedger1763856000000,
  IdempotencyKeys1763942400000,
  Showcases1764028800000,
  JobCheckpoints1764115200000,
  OwnerUnfinishedJobs1764201600000,
  ShowcasePresentationDefaults1764288000000,
  JobCancelRequests1764378000000,
  JobRequestIds1764464400000,
  RetentionAndDeletion1764550800000,
  KeyScopes1764637200000,
  ConsoleSessions1764723600000,
  ShowcaseIndexable1764810000000,
  JobStageTimings1764896400000,
  JobCreatingKeys1764982800000,
  CatalogueItems1765069200000,
  ItemVariants1765155600000,
  Analytics1765242000000,
  ShowcaseWalls1765328400000,
  AnalyticsJobs1765414800000,
  VisitorWallRetention1765501200000,
  ShopConnections1765587600000,
  ShopWebhookDeliveries1765674000000,
];
