import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { WallsModule } from '../walls/walls.module';
import { AssetsController } from './assets.controller';
import { BannerLinks, BannerRedirectController } from './banner-redirect.controller';
import { EmbedController } from './embed/embed.controller';
import { EmbedService } from './embed/embed.service';
import { FilesController } from './files.controller';
import { OembedController } from './oembed/oembed.controller';
import { OembedService } from './oembed/oembed.service';
import { RobotsController } from './robots.controller';
import { RoomController } from './room/room.controller';
import { RoomService } from './room/room.service';
import { ShowcasePageController } from './showcase/showcase-page.controller';
import { ShowcasePageService } from './showcase/showcase-page.service';
import { ShowcaseSkusController } from './showcase/showcase-skus.controller';
import { ShowcaseSkusService } from './showcase/showcase-skus.service';
import { ShowcaseThumbnails } from './showcase/showcase-thumbnails.service';

/**
 * What anyone may fetch without a key: stored files, embed pages, showcase/item/wall pages, the widget and viewer
 * scripts, robots.txt, and the Scene Viewer banner's counted redirect (/r/…, AnalyticsModule's EventIntake).
 */
@Module({
  imports: [AnalyticsModule, WallsModule],
  controllers: [
    FilesController,
    EmbedController,
    AssetsController,
    ShowcasePageController,
    ShowcaseSkusController,
    RobotsController,
    BannerRedirectController,
    OembedController,
    RoomController,
  ],
  providers: [EmbedService, ShowcasePageService, ShowcaseSkusService, ShowcaseThumbnails, BannerLinks, OembedService, RoomService],
})
export class PublicPagesModule {}
