<?php
/**
 * The "AR viewer" block (image-ar/viewer): the viewer for a SKU on any page, rendered on the server.
 *
 * blocks/viewer/block.json declares it; its editor script is plain JavaScript against the editor's globals
 * (wp.blocks, wp.element, wp.blockEditor, wp.components, wp.serverSideRender): no build step.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/** Registers the block from its block.json (init). */
function image_ar_register_block(): void {
	register_block_type( IMAGE_AR_DIR . 'blocks/viewer', array( 'render_callback' => 'image_ar_render_block' ) );
}

/**
 * The block's output: the shortcode's, from the block's attributes.
 *
 * @param array $attributes sku, height, showcase.
 * @return string HTML.
 */
function image_ar_render_block( $attributes ): string {
	$attributes = is_array( $attributes ) ? $attributes : array();
	return image_ar_shortcode(
		array(
			'sku'      => isset( $attributes['sku'] ) ? (string) $attributes['sku'] : '',
			'height'   => isset( $attributes['height'] ) ? (string) $attributes['height'] : '480',
			'showcase' => isset( $attributes['showcase'] ) ? (string) $attributes['showcase'] : '',
		)
	);
}
