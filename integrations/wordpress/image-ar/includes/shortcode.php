<?php
/**
 * [image_ar sku="…" height="…" showcase="…"]: the viewer on any page. Without sku, on a product page, the
 * product's own SKU.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/** Registers [image_ar] (init). */
function image_ar_register_shortcode(): void {
	add_shortcode( 'image_ar', 'image_ar_shortcode' );
}

/**
 * The shortcode's output.
 *
 * @param array|string $atts The shortcode's attributes ('' when it has none).
 * @return string HTML.
 */
function image_ar_shortcode( $atts ): string {
	$atts = shortcode_atts(
		array(
			'sku'      => '',
			'height'   => '480',
			'showcase' => '',
		),
		is_array( $atts ) ? $atts : array(),
		'image_ar'
	);
	$sku = trim( (string) $atts['sku'] );
	if ( '' === $sku && function_exists( 'wc_get_product' ) ) {
		$product = wc_get_product();
		$sku     = $product instanceof WC_Product ? image_ar_product_sku( $product ) : '';
	}
	return image_ar_viewer_html(
		array(
			'sku'      => $sku,
			'height'   => $atts['height'],
			'showcase' => '' === $atts['showcase'] ? null : $atts['showcase'],
		)
	);
}
