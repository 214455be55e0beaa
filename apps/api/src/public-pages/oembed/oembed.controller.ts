import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ErrorResponseDto } from '../../http/error.dto';
import { QueryParams } from '../../http/request-schema';
import { OembedDto } from './oembed.dto';
import { OembedQuery } from './oembed.schema';
import { type OembedResponse, OembedService } from './oembed.service';

/** An answer stays valid as long as the page's title and shape do: five minutes in shared caches, as the embed pages. */
const CACHE = 'public, max-age=300';

/** oEmbed (oembed.com) for this service's own pages: what WordPress, Discourse or Iframely fetch when a page's link is pasted. */
@ApiTags('oembed')
@Controller('oembed')
export class OembedController {
  constructor(private readonly oembed: OembedService) {}

  @Get()
  @ApiOperation({
    summary: 'oEmbed for a showcase, item, wall or embed page of this service; public, no key',
    description:
      'oEmbed 1.0 (oembed.com), JSON only. Pages name this route in a <link rel="alternate" type="application/json+oembed"> (discovery). ' +
      'Answers CORS * and Cache-Control public, max-age=300. Parameters other than these are ignored, as the spec asks.',
  })
  @QueryParams(OembedQuery)
  @ApiResponse({ status: 200, type: OembedDto })
  @ApiResponse({
    status: 400,
    type: ErrorResponseDto,
    description: 'url missing or over 2048 characters, maxwidth / maxheight not 1-10000.',
  })
  @ApiResponse({
    status: 404,
    type: ErrorResponseDto,
    description:
      'The url is not a page of this service (another host, a path no page has), or names nothing to show: an unknown id, a picture still converting, failed or deleted.',
  })
  @ApiResponse({
    status: 501,
    type: ErrorResponseDto,
    description: 'format_not_supported: a format other than json (this service writes no XML).',
  })
  async get(@Query() query: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<OembedResponse> {
    // Errors too: a consumer's script reads the 404 or 501 rather than a CORS failure; and they are not cached.
    void reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
    const answer = await this.oembed.answer(query);
    void reply.header('cache-control', CACHE);
    return answer;
  }
}
