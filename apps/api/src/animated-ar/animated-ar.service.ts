import { Inject, Injectable } from '@nestjs/common';
import { type PricingPolicy, toCredits } from '@app/billing';
import type { AppConfig } from '@app/config';
import { JobRepository } from '@app/persistence';
import { DEFAULT_MOTION_STYLE, hostedProviderStatus, MOTION_PRESETS, MotionCatalog } from '@app/plugins';
import { animatedArPurpose, APP_CONFIG, JobRoutes, PRICING_POLICY } from '@app/runtime';
import { apiKeyIdOf, type Principal } from '../http/api-key.guard';
import { JobAdmission } from '../jobs/job-admission.service';
import { ANIMATED_AR_LIMITS, parseAnimatedArRequest } from './animated-ar.schema';

/** v2 animated AR: validate, quote, charge up front (all lines in one transaction with the job), queue. */
@Injectable()
export class AnimatedArService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly routes: JobRoutes,
    private readonly catalog: MotionCatalog,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    private readonly admission: JobAdmission,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(p: Principal, body: unknown) {
    const req = parseAnimatedArRequest(body, this.catalog.ids(), { blockPrivate: !this.config.allowPrivateNetworks });
    const videoModel = req.source === 'image' ? (req.input.video_model ?? this.catalog.defaultModel) : undefined;
    const quote = this.pricing.quote({
      kind: 'animated-ar',
      source: req.source,
      removeBackground: req.input.remove_background === true,
      videoModel,
    });
    const billed = p.keyType !== 'owner';
    const before = await this.admission.admit(p.userId);
    // 402 (InsufficientCreditsError, mapped by the error filter) leaves neither job nor charge.
    const created = await this.jobs.createCharged(
      {
        kind: 'v2.animated-ar',
        pipeline: this.routes.pipelineFor('v2.animated-ar'),
        ownerId: p.userId,
        input: { ...req.input },
        idPrefix: 'v2',
        withPublicPage: true,
        createdByKey: apiKeyIdOf(p),
      },
      billed
        ? {
            userId: p.userId,
            lines: quote.lines.map((l) => ({ cents: l.cents, purpose: animatedArPurpose(l.item), operation: 'animated-ar' })),
          }
        : null,
    );
    await this.admission.enqueue(p.userId, [created.job.id], before);
    return {
      job_id: created.job.id,
      object: 'job' as const,
      kind: 'animated_ar' as const,
      status: 'queued' as const,
      source: req.source,
      pricing: {
        billed,
        lines: quote.lines.map((l) => ({ item: l.item, credits: toCredits(l.cents) })),
        total: toCredits(quote.totalCents),
        ...(req.source === 'image'
          ? { note: 'an already-animated image (GIF, APNG, animated WebP) gets the AI motion part refunded when the job completes' }
          : {}),
      },
      credits_charged: toCredits(created.chargedCents),
      ...(videoModel ? { video_model: videoModel } : {}),
      ...(req.ignored.length ? { ignored: req.ignored.map((f) => ({ param: f, reason: 'has no effect on a video source' })) } : {}),
    };
  }

  /** GET /api/v2/animated-ar/options: presets, enabled models, limits and prices in force. */
  options(p: Principal) {
    const q = (source: 'image' | 'video', removeBackground: boolean) =>
      toCredits(
        this.pricing.quote({
          kind: 'animated-ar',
          source,
          removeBackground,
          videoModel: source === 'image' ? this.catalog.defaultModel : undefined,
        }).totalCents,
      );
    return {
      motion_styles: MOTION_PRESETS.map((m) => ({
        id: m.id,
        label: m.label,
        description: m.description,
        default: m.id === DEFAULT_MOTION_STYLE,
      })),
      default_motion_style: DEFAULT_MOTION_STYLE,
      video_models: this.catalog.models().map((m) => ({ ...m, default: m.id === this.catalog.defaultModel })),
      default_video_model: this.catalog.defaultModel,
      // Built-in hosted providers, on or off; the owner key also sees why one is off.
      video_providers: hostedProviderStatus(this.config).map((h) => ({
        id: h.id,
        enabled: h.enabled,
        ...(h.reason && p.keyType === 'owner' ? { reason: h.reason } : {}),
      })),
      limits: {
        custom_motion_chars: ANIMATED_AR_LIMITS.customMotion,
        video_max_bytes: this.config.animated.videoMaxBytes,
        video_max_duration_s: this.config.animated.videoMaxDurationS,
        video_formats: ['mp4', 'mov', 'webm'],
        loop_max_s: 10,
        max_frames: this.config.animated.maxFrames,
        max_frame_px: this.config.animated.maxFramePx,
        source_url: 'https only, publicly reachable, no redirects',
      },
      pricing: {
        billed: p.keyType !== 'owner',
        image: q('image', false),
        image_with_background_removal: q('image', true),
        video: q('video', false),
        video_with_background_removal: q('video', true),
      },
    };
  }
}
