<?php
/**
 * The viewer's markup from the shortcode, the block and on WooCommerce product pages.
 *
 * @package ImageAr
 */

final class ViewerTest extends ImageArTestCase {
	private function viewer( string $html ): DOMElement {
		$viewers = array_values( array_filter( $this->elements( $html, 'div' ), fn( $el ) => $el->hasAttribute( 'data-service-showcase' ) ) );
		$this->assertCount( 1, $viewers, $html );
		return $viewers[0];
	}

	public function test_shortcode_renders_the_widget_container_and_queues_the_script_once(): void {
		$this->configure();
		WP_Stub::$locale = 'de_DE';
		$html            = image_ar_shortcode( array( 'sku' => 'DUNES-A3', 'height' => '520' ) );
		$viewer          = $this->viewer( $html );

		$this->assertSame( 'shw_abcdefghijklmnopqrstuvwx', $viewer->getAttribute( 'data-service-showcase' ) );
		$this->assertSame( 'DUNES-A3', $viewer->getAttribute( 'data-service-sku' ) );
		$this->assertSame( 'de-DE', $viewer->getAttribute( 'data-service-lang' ) );
		$this->assertSame( 'width:100%;height:520px', $viewer->getAttribute( 'style' ) );

		image_ar_shortcode( array( 'sku' => 'DUNES-A3' ) );
		$this->assertSame( array( 'image-ar-widget' ), array_keys( WP_Stub::$scripts ) );
		$script = WP_Stub::$scripts['image-ar-widget'];
		$this->assertSame( 'https://ar.example.com/api/v1/widget.js', $script['src'] );
		$this->assertSame( array( 'in_footer' => true, 'strategy' => 'defer' ), $script['args'] );
		$this->assertNull( $script['ver'], 'no ?ver= on a script the service versions' );
	}

	public function test_shortcode_escapes_what_it_is_given(): void {
		$this->configure();
		$sku    = 'OAK"><script>alert(1)</script>\'&';
		$html   = image_ar_shortcode( array( 'sku' => $sku, 'height' => '300" onload="x' ) );
		$viewer = $this->viewer( $html );
		$this->assertSame( $sku, $viewer->getAttribute( 'data-service-sku' ) );
		$this->assertStringNotContainsString( '<script', $html );
		$this->assertSame( array(), $this->elements( $html, 'script' ) );
		$this->assertFalse( $viewer->hasAttribute( 'onload' ) );
		$this->assertSame( 'width:100%;height:480px', $viewer->getAttribute( 'style' ), 'a height that is not a number reads the default' );
	}

	public function test_shortcode_bounds_the_height_and_takes_another_showcase(): void {
		$this->configure();
		$this->assertSame( 'width:100%;height:1200px', $this->viewer( image_ar_shortcode( array( 'sku' => 'A', 'height' => '99999' ) ) )->getAttribute( 'style' ) );
		$this->assertSame( 'width:100%;height:200px', $this->viewer( image_ar_shortcode( array( 'sku' => 'A', 'height' => '5px' ) ) )->getAttribute( 'style' ) );
		$other = $this->viewer( image_ar_shortcode( array( 'sku' => 'A', 'showcase' => 'shw_other1234' ) ) );
		$this->assertSame( 'shw_other1234', $other->getAttribute( 'data-service-showcase' ) );
		$this->assertSame( '', image_ar_shortcode( array( 'sku' => 'A', 'showcase' => 'emb_notashowcase' ) ), 'a bad showcase id shows nothing, not the default showcase' );
	}

	public function test_shortcode_renders_nothing_until_configured_or_without_a_sku(): void {
		$this->assertSame( '', image_ar_shortcode( array( 'sku' => 'A' ) ) );
		$this->configure( array( 'showcase_id' => '' ) );
		$this->assertSame( '', image_ar_shortcode( array( 'sku' => 'A' ) ) );
		$this->configure();
		$this->assertSame( '', image_ar_shortcode( '' ) );
		$this->assertSame( '', image_ar_shortcode( array( 'sku' => '   ' ) ) );
		$this->assertSame( array(), WP_Stub::$scripts );
	}

	public function test_shortcode_on_a_product_page_defaults_to_the_product_sku(): void {
		$this->configure();
		WP_Stub::$current_product = new WC_Product( 7, 'POSTER-7' );
		$this->assertSame( 'POSTER-7', $this->viewer( image_ar_shortcode( '' ) )->getAttribute( 'data-service-sku' ) );
	}

	public function test_shortcode_and_block_are_registered(): void {
		image_ar_register_shortcode();
		$this->assertSame( 'image_ar_shortcode', WP_Stub::$shortcodes['image_ar'] );

		image_ar_register_block();
		$this->assertCount( 1, WP_Stub::$blocks );
		[ $dir, $args ] = WP_Stub::$blocks[0];
		$this->assertSame( 'image_ar_render_block', $args['render_callback'] );
		$meta = json_decode( (string) file_get_contents( $dir . '/block.json' ), true, 512, JSON_THROW_ON_ERROR );
		$this->assertSame( 'image-ar/viewer', $meta['name'] );
		$this->assertSame( array( 'sku', 'height', 'showcase' ), array_keys( $meta['attributes'] ) );
		$this->assertSame( 'file:./editor.js', $meta['editorScript'] );
		$this->assertFileExists( $dir . '/editor.js' );
		$asset = require $dir . '/editor.asset.php';
		$this->assertContains( 'wp-server-side-render', $asset['dependencies'] );
	}

	public function test_block_renders_from_its_attributes(): void {
		$this->configure();
		$viewer = $this->viewer( image_ar_render_block( array( 'sku' => 'DUNES-A3', 'height' => 640 ) ) );
		$this->assertSame( 'DUNES-A3', $viewer->getAttribute( 'data-service-sku' ) );
		$this->assertSame( 'width:100%;height:640px', $viewer->getAttribute( 'style' ) );
		$this->assertSame( '', image_ar_render_block( array() ) );
	}

	public function test_product_page_viewer_goes_where_the_position_setting_says(): void {
		$this->configure();
		image_ar_register_product_hook();
		$this->assertSame( array( 'image_ar_render_product_viewer' ), WP_Stub::hooked( 'woocommerce_after_add_to_cart_form' ) );

		WP_Stub::$hooks = array();
		$this->configure( array( 'position' => 'before' ) );
		image_ar_register_product_hook();
		$this->assertSame( array( 'image_ar_render_product_viewer' ), WP_Stub::hooked( 'woocommerce_before_add_to_cart_form' ) );
		$this->assertSame( array(), WP_Stub::hooked( 'woocommerce_after_add_to_cart_form' ) );

		WP_Stub::$hooks = array();
		$this->configure( array( 'position' => 'off' ) );
		image_ar_register_product_hook();
		$this->assertSame( array(), WP_Stub::$hooks );
	}

	public function test_simple_product_page_shows_its_sku(): void {
		$this->configure();
		$GLOBALS['product'] = new WC_Product( 11, 'PRINT-11' );
		ob_start();
		image_ar_render_product_viewer();
		$viewer = $this->viewer( (string) ob_get_clean() );
		$this->assertSame( 'PRINT-11', $viewer->getAttribute( 'data-service-sku' ) );
		$this->assertStringContainsString( 'image-ar-viewer--product', $viewer->getAttribute( 'class' ) );
	}

	public function test_variable_product_starts_with_its_own_sku_else_its_first_variation_with_one(): void {
		$this->configure();
		WP_Stub::$products[21] = new WC_Product( 21, '', 'variation' );
		WP_Stub::$products[22] = new WC_Product( 22, 'DUNES-50x70', 'variation' );
		WP_Stub::$products[23] = new WC_Product( 23, 'DUNES-A3', 'variation' );

		$GLOBALS['product'] = new WC_Product( 20, 'DUNES', 'variable', array( 21, 22, 23 ) );
		ob_start();
		image_ar_render_product_viewer();
		$this->assertSame( 'DUNES', $this->viewer( (string) ob_get_clean() )->getAttribute( 'data-service-sku' ) );

		$GLOBALS['product'] = new WC_Product( 20, '', 'variable', array( 21, 22, 23 ) );
		ob_start();
		image_ar_render_product_viewer();
		$this->assertSame( 'DUNES-50x70', $this->viewer( (string) ob_get_clean() )->getAttribute( 'data-service-sku' ) );
	}

	public function test_product_without_any_sku_or_outside_woocommerce_prints_nothing(): void {
		$this->configure();
		$GLOBALS['product'] = new WC_Product( 30, '', 'variable', array() );
		ob_start();
		image_ar_render_product_viewer();
		$this->assertSame( '', ob_get_clean() );

		$GLOBALS['product'] = 'not a product';
		ob_start();
		image_ar_render_product_viewer();
		$this->assertSame( '', ob_get_clean() );
	}
}
