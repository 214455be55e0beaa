import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import { ShopConnectionRepository } from '@app/persistence';
import { APP_CONFIG } from '@app/runtime';
import { SecretBox } from '@app/shops';
import { HttpModule } from '../http/http.module';
import { ImportsModule } from '../imports/imports.module';
import { ShowcasesModule } from '../showcases/showcases.module';
import { ConnectionVault } from './connection-secrets';
import { ConnectionsController } from './connections.controller';
import { ConnectionsService } from './connections.service';
import { defaultShopClients, SHOP_CLIENTS, type ShopClients } from './shop-clients';
import { ConnectionScheduler } from './sync/connection-scheduler.service';
import { ConnectionSync } from './sync/connection-sync.service';
import { SyncScheduleRepository } from './sync/sync-schedule.repository';

/**
 * Shop connections (/api/v2/connections, issue 41). Exports what the sync, the webhooks and the schedule build on:
 * the repository, the vault (sealed credentials → clients) and SHOP_CLIENTS, the one place shop clients are made.
 */
@Module({
  imports: [HttpModule, ImportsModule, ShowcasesModule],
  controllers: [ConnectionsController],
  providers: [
    ConnectionsService,
    ConnectionSync,
    ConnectionScheduler,
    { provide: SyncScheduleRepository, inject: [DataSource], useFactory: (ds: DataSource) => new SyncScheduleRepository(ds) },
    { provide: ShopConnectionRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ShopConnectionRepository(ds) },
    { provide: SHOP_CLIENTS, inject: [APP_CONFIG], useFactory: (config: AppConfig): ShopClients => defaultShopClients(config) },
    {
      provide: ConnectionVault,
      inject: [APP_CONFIG, SHOP_CLIENTS],
      useFactory: (config: AppConfig, clients: ShopClients) => new ConnectionVault(new SecretBox(config.connections.secretKey), clients),
    },
  ],
  exports: [ConnectionsService, ConnectionSync, ShopConnectionRepository, ConnectionVault, SHOP_CLIENTS],
})
export class ConnectionsModule {}
