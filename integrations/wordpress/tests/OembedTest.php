<?php
/**
 * The service registered as a trusted oEmbed provider, and the plugin's hooks.
 *
 * @package ImageAr
 */

final class OembedTest extends ImageArTestCase {
	public function test_registers_showcase_and_embed_urls_of_the_configured_service(): void {
		$this->configure( array( 'service_url' => 'https://ar.example.com' ) );
		image_ar_register_oembed_providers();
		$this->assertSame(
			array(
				array( 'https://ar.example.com/showcase/*', 'https://ar.example.com/oembed', false ),
				array( 'https://ar.example.com/embed/*', 'https://ar.example.com/oembed', false ),
			),
			WP_Stub::$oembed
		);
	}

	public function test_the_wildcard_formats_match_the_links_a_merchant_pastes(): void {
		// WP_oEmbed::get_provider() turns a wildcard format into this regular expression (class-wp-oembed.php).
		$to_regex = static function ( string $format ): string {
			$mask = '#' . str_replace( '___wildcard___', '(.+)', preg_quote( str_replace( '*', '___wildcard___', $format ), '#' ) ) . '#i';
			return (string) preg_replace( '|^#http\\\://|', '#https?\://', $mask );
		};
		$regexes = array_map( $to_regex, image_ar_oembed_formats( 'https://ar.example.com' ) );
		$matches = static fn( string $url ): bool => (bool) array_filter( $regexes, fn( $re ) => preg_match( $re, $url ) );

		$this->assertTrue( $matches( 'https://ar.example.com/showcase/shw_abcdefghijklmnopqrstuvwx' ) );
		$this->assertTrue( $matches( 'https://ar.example.com/showcase/shw_abcdefghijklmnopqrstuvwx/items/itm_1?lang=de' ) );
		$this->assertTrue( $matches( 'https://ar.example.com/embed/emb_abcdefghijklmnopqrstuvwx' ) );
		$this->assertFalse( $matches( 'https://ar.example.com/console' ) );
		$this->assertFalse( $matches( 'https://other.example.com/showcase/shw_x' ) );
	}

	public function test_registers_nothing_until_a_service_url_is_set(): void {
		image_ar_register_oembed_providers();
		$this->assertSame( array(), WP_Stub::$oembed );
	}

	public function test_loading_the_plugin_hooks_its_parts(): void {
		$hooks = array_map( fn( $h ) => $h[0] . ' ' . $h[1], WP_Stub::$loaded_hooks );
		$this->assertEqualsCanonicalizing(
			array(
				'admin_init image_ar_register_settings',
				'admin_menu image_ar_add_settings_page',
				'init image_ar_register_shortcode',
				'init image_ar_register_block',
				'init image_ar_register_oembed_providers',
				'init image_ar_register_product_hook',
			),
			$hooks
		);
		foreach ( WP_Stub::$loaded_hooks as $hook ) {
			$this->assertTrue( function_exists( $hook[1] ), $hook[1] );
		}
	}
}
