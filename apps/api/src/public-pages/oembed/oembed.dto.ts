import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** GET /oembed's answer (schema OembedDto): an oEmbed 1.0 `rich` response (oembed.com §2.3). */
export class OembedDto {
  @ApiProperty({ enum: ['1.0'] }) version!: '1.0';
  @ApiProperty({ enum: ['rich'] }) type!: 'rich';
  @ApiProperty({ description: "This service's host (PUBLIC_BASE_URL).", example: 'ar.example.com' }) provider_name!: string;
  @ApiProperty({ format: 'uri', example: 'https://ar.example.com/' }) provider_url!: string;
  @ApiProperty({ description: "The page's title: the showcase's tagline, the picture's banner title or file name, the wall's name." })
  title!: string;
  @ApiPropertyOptional({ description: "The work's artist (its label), when it has one." }) author_name?: string;
  @ApiProperty({
    description:
      'One <iframe> of the embed page (a showcase: /showcase/{id}/embed; a picture: /embed/{emb_…}), width × height, allow="xr-spatial-tracking; fullscreen", loading="lazy".',
    example:
      '<iframe src="https://ar.example.com/embed/emb_…" width="427" height="640" title="Dunes" allow="xr-spatial-tracking; fullscreen" allowfullscreen loading="lazy" style="border:0"></iframe>',
  })
  html!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: "The iframe's width in CSS pixels: within maxwidth, the picture's shape kept." })
  width!: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: "The iframe's height in CSS pixels: within maxheight." }) height!: number;
  @ApiPropertyOptional({
    format: 'uri',
    description:
      'The largest thumbnail within maxwidth × maxheight (a showcase: its first picture). With thumbnail_width and thumbnail_height, or none of the three.',
  })
  thumbnail_url?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1 }) thumbnail_width?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1 }) thumbnail_height?: number;
  @ApiProperty({ type: 'integer', description: 'Suggested cache lifetime in seconds.', example: 3600 }) cache_age!: number;
}
