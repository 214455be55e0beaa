import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { loadStaticAsset, repoRoot, type StaticAsset } from '../http/static-asset';
import { BUILT_WIDGET, servedAsset, widgetAsset } from './widget-script';

const WIDGET_SOURCE = (): string => readFileSync(join(repoRoot(), 'apps/api/assets/widget.js'), 'utf8');

/** The widget as the build minified it; else (run from sources without a build) filled in from its source. */
function servedWidget(): StaticAsset {
  const built = join(repoRoot(), BUILT_WIDGET);
  return existsSync(built) ? servedAsset(readFileSync(built)) : widgetAsset(WIDGET_SOURCE());
}

/** The widget and the 3D viewer script, served by the service itself (no CDN). */
@Controller()
export class AssetsController {
  /** The widget with every locale's messages filled in (widget-script.ts), minified by the build. */
  private readonly widget = servedWidget();
  private readonly modelViewer = loadStaticAsset(require.resolve('@google/model-viewer/dist/model-viewer.min.js'));

  /** Gzipped size of the widget as served (all locales' messages in), for the docs and the note. */
  static widgetGzipBytes(): number {
    return gzipSync(servedWidget().body).length;
  }

  @ApiTags('v1')
  @ApiOperation({
    summary: 'The embeddable widget script; public, no key',
    description: 'Include once per page; see data-service-* attributes and window mount/embed.',
  })
  @ApiProduces('application/javascript')
  @ApiResponse({ status: 200, description: 'The script; Cache-Control public, max-age=300; ETag.', schema: { type: 'string' } })
  @Get('api/v1/widget.js')
  widgetJs(@Res() reply: FastifyReply): void {
    this.send(reply, this.widget, 'public, max-age=300');
  }

  @ApiExcludeEndpoint()
  @Get('assets/model-viewer.min.js')
  modelViewerJs(@Res() reply: FastifyReply): void {
    this.send(reply, this.modelViewer, 'public, max-age=86400');
  }

  private send(reply: FastifyReply, asset: StaticAsset, cache: string): void {
    void reply
      .header('content-type', 'application/javascript; charset=utf-8')
      .header('cache-control', cache)
      .header('etag', asset.etag)
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(asset.body);
  }
}
