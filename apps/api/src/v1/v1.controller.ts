import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { ConversionService } from './conversion.service';

/** v1 single-image conversion (spec §4.2). Thin: validation and logic live in the service. */
@Controller('api/v1')
@UseGuards(ApiKeyGuard)
export class V1Controller {
  constructor(private readonly conversions: ConversionService) {}

  @Post('convert')
  @HttpCode(202)
  convert(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.conversions.submit(req.principal.userId, body);
  }

  @Get('status/:jobId')
  status(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.conversions.status(req.principal.userId, jobId);
  }

  @Get('webhook-secret')
  webhookSecret(@Req() req: AuthedRequest) {
    return this.conversions.webhookSecret(req.principal.userId);
  }

  @Get('result/:jobId')
  result(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.conversions.result(req.principal.userId, jobId);
  }
}
