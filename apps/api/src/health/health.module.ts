import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** Liveness and readiness (/healthz, /readyz; no key). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
