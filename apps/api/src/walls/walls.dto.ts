import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OuterDimensionsDto } from '../presentation/presentation.dto';

/** Response shapes of the gallery wall routes (the requests: walls.schema.ts). */

class WallPlaceDto {
  @ApiProperty({ example: 12 }) item_id!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The variant that hangs (null: an item without variants).' })
  variant_sku!: string | null;
  @ApiProperty({ example: -27.5, description: "The picture's outer centre, inches right of the wall's centre." }) x_inches!: number;
  @ApiProperty({ example: 0, description: "The picture's outer centre, inches above the wall's centre." }) y_inches!: number;
  @ApiProperty({ example: 24, description: 'Outer width (frame and mat included).' }) width_inches!: number;
  @ApiProperty({ example: 30, description: 'Outer height (frame and mat included).' }) height_inches!: number;
}

class WallItemDto extends WallPlaceDto {
  @ApiPropertyOptional({ description: 'The item was deleted since (the built files still show it; a rebuild must leave it out).' })
  missing?: boolean;
}

class WallTexturesDto {
  @ApiProperty({ description: 'The pictures share atlas textures (the materials would otherwise exceed 10).' }) atlas!: boolean;
  @ApiProperty({ description: "The pictures' textures were encoded again (atlases, or smaller to meet the budgets)." }) reencoded!: boolean;
  @ApiProperty({ description: 'Picture textures in the model.' }) count!: number;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'integer' } }, example: [[2048, 1536]] }) px!: number[][];
  @ApiProperty({ description: 'Longest side, in texture pixels, of the largest picture as shown.', example: 2048 }) picture_px!: number;
}

class WallErrorDto {
  @ApiProperty({ example: 'item_missing' }) code!: string;
  @ApiProperty() message!: string;
}

export class WallDto {
  @ApiProperty({ example: 'wall_k3j9x0…' }) id!: string;
  @ApiProperty({ enum: ['gallery_wall'] }) object!: string;
  @ApiProperty() showcase_id!: number;
  @ApiProperty({ maxLength: 80, example: 'Over the sofa' }) name!: string;
  @ApiProperty({
    enum: ['queued', 'downloading', 'converting', 'uploading', 'completed', 'failed'],
    description: "The build job's status.",
  })
  status!: string;
  @ApiProperty({ description: '0..100' }) progress!: number;
  @ApiProperty({ description: 'The job building (or that built) its files.' }) job_id!: string;
  @ApiProperty({ enum: ['row', 'grid', 'salon', 'custom'] }) arrangement!: string;
  @ApiProperty({ example: 3 }) gap_inches!: number;
  @ApiProperty({ enum: ['center', 'top', 'bottom'] }) align!: string;
  @ApiProperty({ type: Number, nullable: true }) columns!: number | null;
  @ApiProperty({ type: [WallItemDto] }) items!: WallItemDto[];
  @ApiProperty({ type: OuterDimensionsDto, description: 'The whole arrangement, outer edge to outer edge.' })
  outer_dimensions!: OuterDimensionsDto;
  @ApiPropertyOptional({ description: 'Once completed.' }) usdz_url?: string;
  @ApiPropertyOptional({ description: 'Once completed.' }) glb_url?: string;
  @ApiPropertyOptional({ description: 'Once completed: the framed pictures to scale on a plain wall.' }) preview_url?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Once completed; stays the same across rebuilds.' }) embed_url?:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) embed_url_static?: string | null;
  @ApiProperty({ description: "The wall's page on the showcase." }) page_url!: string;
  @ApiProperty({ type: WallTexturesDto, nullable: true, description: 'How the textures were packed (once completed).' })
  textures!: WallTexturesDto | null;
  @ApiProperty({ type: WallErrorDto, nullable: true }) error!: WallErrorDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WallCreatedDto {
  @ApiProperty({ example: 'wall_k3j9x0…' }) id!: string;
  @ApiProperty({ example: 'v2_…' }) job_id!: string;
  @ApiProperty({ example: 1 }) credits_charged!: number;
  @ApiProperty({ type: WallDto }) wall!: WallDto;
}

export class WallRebuildDto {
  @ApiProperty({ type: WallDto }) wall!: WallDto;
  @ApiProperty({ description: 'The job building the new files.' }) job_id!: string;
}

export class WallListDto {
  @ApiProperty({ type: [WallDto] }) data!: WallDto[];
}

export class WallLayoutDto {
  @ApiProperty({ enum: ['row', 'grid', 'salon', 'custom'] }) arrangement!: string;
  @ApiProperty() gap_inches!: number;
  @ApiProperty({ enum: ['center', 'top', 'bottom'] }) align!: string;
  @ApiProperty({ type: Number, nullable: true }) columns!: number | null;
  @ApiProperty({ type: [WallPlaceDto] }) items!: WallPlaceDto[];
  @ApiProperty({ type: OuterDimensionsDto }) outer_dimensions!: OuterDimensionsDto;
}
