<?php
/**
 * The AR service as a trusted oEmbed provider: a showcase or item link pasted into a post embeds its viewer.
 *
 * WordPress treats providers two ways. One it discovers from a page's <link rel="alternate"
 * type="application/json+oembed"> is untrusted: wp_filter_oembed_result() (on oembed_dataparse) keeps only the
 * first <iframe> with a few attributes and adds sandbox="allow-scripts", which stops the embed page from
 * opening AR Quick Look or Scene Viewer (they navigate the top window) and drops its `allow` attribute.
 * A provider registered with wp_oembed_add_provider() is trusted: that filter returns its HTML untouched
 * (it asks WP_oEmbed::get_provider( $url, array( 'discover' => false ) ) first). So the service's showcase and
 * embed URLs are registered here, for the configured service only.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/**
 * The URL patterns (WordPress wildcard format) the service answers oEmbed for.
 *
 * @param string $service_url The service's base URL, no trailing slash.
 * @return string[]
 */
function image_ar_oembed_formats( string $service_url ): array {
	return array( $service_url . '/showcase/*', $service_url . '/embed/*' );
}

/** Registers the configured service as an oEmbed provider (init). */
function image_ar_register_oembed_providers(): void {
	$service_url = image_ar_get_settings()['service_url'];
	if ( '' === $service_url ) {
		return;
	}
	foreach ( image_ar_oembed_formats( $service_url ) as $format ) {
		wp_oembed_add_provider( $format, $service_url . '/oembed', false );
	}
}
