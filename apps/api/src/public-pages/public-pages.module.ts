import { Module } from '@nestjs/common';
import { AssetsController } from './assets.controller';
import { EmbedController } from './embed/embed.controller';
import { EmbedService } from './embed/embed.service';
import { FilesController } from './files.controller';
import { RobotsController } from './robots.controller';
import { ShowcasePageController } from './showcase/showcase-page.controller';
import { ShowcasePageService } from './showcase/showcase-page.service';
import { ShowcaseThumbnails } from './showcase/showcase-thumbnails.service';

/** What anyone may fetch without a key: stored files, embed pages, showcase/item/wall pages, the widget and viewer scripts, robots.txt. */
@Module({
  controllers: [FilesController, EmbedController, AssetsController, ShowcasePageController, RobotsController],
  providers: [EmbedService, ShowcasePageService, ShowcaseThumbnails],
})
export class PublicPagesModule {}
