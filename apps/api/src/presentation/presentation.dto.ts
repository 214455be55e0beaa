import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { COLOR_PRESETS, FINISHES, FRAME_DEFAULTS, FRAME_STYLES, PLACEMENTS } from '@app/plugins';

/**
 * Documentation shapes of the presentation fields ("wall-ready AR"), shared by v1 and v2. Validation lives
 * in parsePresentation (libs/plugins), called by the services; these classes only describe.
 */

const PRESETS = Object.entries(COLOR_PRESETS)
  .map(([name, hex]) => `${name} (${hex})`)
  .join(', ');
const COLOR = `A preset (${PRESETS}; oak and walnut also get a wood grain) or "#rrggbb".`;
const STYLE_DEFAULTS = FRAME_STYLES.map(
  (s) => `${s}: ${FRAME_DEFAULTS[s].width} in wide, ${FRAME_DEFAULTS[s].depth} in deep, ${FRAME_DEFAULTS[s].color}`,
).join('; ');
const OUTER_RULE =
  'The outer size of the framed object: a frame adds 2 x (frame width + mat width) to the picture\'s width and height (frame width + mat width on each side); "none" and "canvas" keep the picture size.';

/** A frame: its style and, optionally, moulding width, depth and colour (per-style defaults otherwise). */
export class FrameRequestDto {
  @ApiPropertyOptional({
    enum: FRAME_STYLES,
    default: 'classic',
    description: `Frame style (default "classic" when a frame object is given). Defaults per style: ${STYLE_DEFAULTS}. "float": the picture floats in the frame with a reveal (the mat, or 0.5 in white when none is given). "canvas": a gallery-wrapped canvas, no moulding.`,
    example: 'classic',
  })
  style?: string;

  @ApiPropertyOptional({
    minimum: 0.1,
    maximum: 6,
    description: 'Moulding width seen from the front, each side, in inches. Not for "none" or "canvas".',
    example: 1.5,
  })
  width_inches?: number;

  @ApiPropertyOptional({ minimum: 0.04, maximum: 6, description: 'Depth of the whole object from the wall, in inches.', example: 1.25 })
  depth_inches?: number;

  @ApiPropertyOptional({ description: `Moulding colour. ${COLOR}`, example: 'oak' })
  color?: string;

  @ApiPropertyOptional({
    description: `"canvas" only: "mirror" (default: the picture's edges continue around the sides) or a solid colour: ${COLOR}`,
    example: 'mirror',
  })
  edge?: string;
}

/** `frame` as sent: a style name (shorthand for {style}) or a frame object. */
export const FRAME_REQUEST_SCHEMA: SchemaObject = {
  description: `The frame: a style name ("none", "thin", "classic", "float", "canvas"; shorthand for {style}) or an object {style, width_inches, depth_inches, color, edge}. No frame when absent. ${OUTER_RULE}`,
  oneOf: [
    { type: 'string', enum: [...FRAME_STYLES] },
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        style: { type: 'string', enum: [...FRAME_STYLES], default: 'classic', description: `Defaults per style: ${STYLE_DEFAULTS}.` },
        width_inches: { type: 'number', minimum: 0.1, maximum: 6, description: 'Moulding width, each side (not for "none" or "canvas").' },
        depth_inches: { type: 'number', minimum: 0.04, maximum: 6, description: 'Depth of the whole object from the wall.' },
        color: { type: 'string', description: COLOR },
        edge: { type: 'string', description: `"canvas" only: "mirror" (default) or a colour. ${COLOR}` },
      },
    },
  ],
  example: { style: 'classic', color: 'oak', width_inches: 1.5 },
};

export class MatRequestDto {
  @ApiProperty({
    minimum: 0.1,
    maximum: 12,
    description: 'Mat (passe-partout) width between the picture and the frame, each side, in inches.',
    example: 2,
  })
  width_inches!: number;

  @ApiPropertyOptional({ default: 'white', description: `Mat colour. ${COLOR}`, example: 'white' })
  color?: string;
}

/** The fields a showcase takes as defaults for its items; also part of every picture request. */
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

  @ApiPropertyOptional(FRAME_REQUEST_SCHEMA as never)
  frame?: string | FrameRequestDto;

  @ApiPropertyOptional({
    type: MatRequestDto,
    description: `A mat between the picture and the frame; needs a frame with moulding ("thin", "classic", "float"), not "none" or "canvas". ${OUTER_RULE}`,
  })
  mat?: MatRequestDto;
}

/** Every presentation field of a picture: the defaults' fields plus the AR banner. */
export class PresentationRequestDto extends PresentationDefaultsDto {
  @ApiPropertyOptional({
    maxLength: 60,
    description: 'Banner title (AR Quick Look banner, Scene Viewer title, embed caption): 1 to 60 characters, no control characters.',
    example: 'Dunes at Dawn',
  })
  title?: string;

  @ApiPropertyOptional({ maxLength: 120, description: 'Banner subtitle: at most 120 characters.', example: 'Giclée print, signed' })
  subtitle?: string;

  @ApiPropertyOptional({
    maxLength: 2048,
    description: 'https URL the banner leads to (e.g. the product page); no credentials.',
    example: 'https://shop.example.com/dunes',
  })
  link_url?: string;

  @ApiPropertyOptional({ maxLength: 30, description: 'Banner button label, at most 30 characters; needs link_url.', example: 'Buy now' })
  call_to_action?: string;

  @ApiPropertyOptional({ maxLength: 30, description: 'Price shown in the banner, as text (at most 30 characters).', example: '$120' })
  price?: string;
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
