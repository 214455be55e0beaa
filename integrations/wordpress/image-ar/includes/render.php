<?php
/**
 * The viewer's markup: the widget's container for a showcase and a SKU, and the widget script.
 *
 * The widget (served by the AR service at /api/v1/widget.js) finds containers by data-service-showcase,
 * looks their SKU up in the showcase and shows that work's viewer; on WooCommerce pages it follows the
 * variation form itself (found_variation / reset_data). An unknown SKU hides the container.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/** Heights the viewer may take, in CSS pixels. */
const IMAGE_AR_MIN_HEIGHT = 200;
const IMAGE_AR_MAX_HEIGHT = 1200;

/**
 * A height within bounds; anything not a number reads 480.
 *
 * @param mixed $height Pixels, as a number or a string of digits.
 * @return int
 */
function image_ar_height( $height ): int {
	if ( is_string( $height ) ) {
		$height = trim( str_replace( 'px', '', $height ) );
	}
	if ( ! is_numeric( $height ) ) {
		return 480;
	}
	return max( IMAGE_AR_MIN_HEIGHT, min( IMAGE_AR_MAX_HEIGHT, (int) $height ) );
}

/** Queues the widget script (deferred, in the footer) from the configured service; once however often called. */
function image_ar_enqueue_widget(): void {
	$settings = image_ar_get_settings();
	if ( '' === $settings['service_url'] ) {
		return;
	}
	wp_enqueue_script(
		'image-ar-widget',
		$settings['service_url'] . '/api/v1/widget.js',
		array(),
		null, // phpcs:ignore WordPress.WP.EnqueuedResourceParameters.MissingVersion -- the service versions its own script.
		array(
			'in_footer' => true,
			'strategy'  => 'defer',
		)
	);
}

/**
 * The viewer for one SKU, and the widget queued; '' while the plugin is not configured or without a SKU.
 *
 * @param array{sku?: mixed, height?: mixed, showcase?: mixed, class?: string} $args What to show.
 * @return string HTML.
 */
function image_ar_viewer_html( array $args ): string {
	$settings = image_ar_get_settings();
	$sku      = isset( $args['sku'] ) && is_scalar( $args['sku'] ) ? trim( (string) $args['sku'] ) : '';
	// A showcase named here must be a showcase id (else nothing: never the default showcase by mistake).
	$showcase = isset( $args['showcase'] ) && '' !== $args['showcase'] ? image_ar_sanitize_showcase_id( $args['showcase'] ) : $settings['showcase_id'];
	if ( '' === $settings['service_url'] || ! $showcase || '' === $sku || strlen( $sku ) > 200 ) {
		return '';
	}
	image_ar_enqueue_widget();

	$class = 'image-ar-viewer' . ( empty( $args['class'] ) ? '' : ' ' . $args['class'] );
	return sprintf(
		'<div class="%1$s" data-service-showcase="%2$s" data-service-sku="%3$s" data-service-lang="%4$s" style="width:100%%;height:%5$dpx"></div>',
		esc_attr( $class ),
		esc_attr( $showcase ),
		esc_attr( $sku ),
		esc_attr( str_replace( '_', '-', determine_locale() ) ),
		image_ar_height( $args['height'] ?? 480 )
	);
}
