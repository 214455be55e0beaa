import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/**
 * Crawlers may read the public showcase pages (each page still says `noindex` unless its owner made it
 * indexable); the API, the model files and the console are no place for them. Without this file crawlers
 * get the API's JSON 404, which they read as an invalid robots.txt.
 */
export const ROBOTS_TXT = 'User-agent: *\nDisallow: /api/\nDisallow: /files/\nDisallow: /console\nAllow: /showcase/\n';

@ApiExcludeController()
@Controller()
export class RobotsController {
  @Get('robots.txt')
  robots(@Res() reply: FastifyReply) {
    void reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(ROBOTS_TXT);
  }
}
