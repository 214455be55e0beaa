import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FINISHES, FRAME_STYLES, FrameRequest, OUTER_RULE, PLACEMENTS } from '@app/plugins';
import { toOpenApi } from '@app/schema';

/** Response shapes of the presentation fields ("wall-ready AR"), shared by v1 and v2; the requests: presentation.schema.ts (libs/plugins). */

/** A showcase's presentation defaults as stored: the fields as they were sent (their request schemas: libs/plugins presentation.schema.ts). */
export class PresentationDefaultsDto {
  @ApiPropertyOptional({
    enum: PLACEMENTS,
    default: 'wall',
    description:
      'How the model is placed in AR: hung on a wall (default: placed on a vertical surface, like a picture) or standing on the floor.',
    example: 'wall',
  })
  placement?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Whether people may pinch-scale the model in AR. Default false: the picture keeps its real, physical size.',
    example: false,
  })
  allow_scaling?: boolean;

  @ApiPropertyOptional({
    enum: FINISHES,
    default: 'unlit',
    description:
      '"unlit" (default): the picture\'s exact colours, whatever the room\'s light. "matte" / "gloss": lit by the room, without or with a sheen.',
    example: 'matte',
  })
  finish?: string;

  @ApiPropertyOptional({
    description: `The frame: a style name (shorthand for {style}) or a frame object. ${OUTER_RULE}`,
    oneOf: [{ type: 'string', enum: [...FRAME_STYLES] }, toOpenApi(FrameRequest)],
  })
  frame?: unknown;

  @ApiPropertyOptional({
    allOf: [{ $ref: '#/components/schemas/MatRequestDto' }],
    description: `A mat between the picture and the frame; needs a frame with moulding ("thin", "classic", "float"), not "none" or "canvas". ${OUTER_RULE}`,
  })
  mat?: unknown;
}

/* ---- results ---- */

export class FrameResultDto {
  @ApiProperty({ enum: FRAME_STYLES, description: '"none" when no frame was asked for.' }) style!: string;
  @ApiProperty({ description: 'Moulding width, each side (0 for "none" and "canvas").', example: 1.5 }) width_inches!: number;
  @ApiProperty({ description: 'Depth of the whole object from the wall.', example: 1.25 }) depth_inches!: number;
  @ApiProperty({ description: 'Preset name or #rrggbb.', example: 'walnut' }) color!: string;
  @ApiPropertyOptional({ description: '"canvas" only: "mirror" or a colour.' }) edge?: string;
}

export class MatResultDto {
  @ApiProperty({ example: 2 }) width_inches!: number;
  @ApiProperty({ example: 'white' }) color!: string;
}

export class OuterDimensionsDto {
  @ApiProperty({ example: 41, description: 'Picture width + 2 x (frame width + mat width); the picture width for "none" and "canvas".' })
  width_inches!: number;
  @ApiProperty({ example: 29, description: 'Picture height + 2 x (frame width + mat width); the picture height for "none" and "canvas".' })
  height_inches!: number;
  @ApiProperty({ example: 1.25, description: "Depth from the wall (the frame's depth)." }) depth_inches!: number;
}

export class BannerDto {
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() subtitle?: string;
  @ApiPropertyOptional() link_url?: string;
  @ApiPropertyOptional() call_to_action?: string;
  @ApiPropertyOptional() price?: string;
}

const RESULT_NOTE = 'Present on results of jobs run since wall-ready AR (older results lack it).';

/** The presentation a completed job was built with, resolved with every default. */
export class PresentationResultDto {
  @ApiPropertyOptional({ enum: PLACEMENTS, description: RESULT_NOTE }) placement?: string;
  @ApiPropertyOptional({ type: Boolean, description: RESULT_NOTE }) allow_scaling?: boolean;
  @ApiPropertyOptional({ enum: FINISHES, description: RESULT_NOTE }) finish?: string;
  @ApiPropertyOptional({ type: FrameResultDto, description: `The resolved frame. ${RESULT_NOTE}` }) frame?: FrameResultDto;
  @ApiPropertyOptional({
    type: MatResultDto,
    nullable: true,
    description: `The resolved mat, null when none (a float frame without a mat gets its default reveal, 0.5 in white). ${RESULT_NOTE}`,
  })
  mat?: MatResultDto | null;
  @ApiPropertyOptional({ type: OuterDimensionsDto, description: `${OUTER_RULE} ${RESULT_NOTE}` }) outer_dimensions?: OuterDimensionsDto;
  @ApiPropertyOptional({ type: BannerDto, description: `The banner fields given (an empty object when none). ${RESULT_NOTE}` })
  banner?: BannerDto;
}
