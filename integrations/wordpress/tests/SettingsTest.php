<?php
/**
 * The settings page: registration, capability, nonce, and the sanitize callbacks.
 *
 * @package ImageAr
 */

final class SettingsTest extends ImageArTestCase {
	public function test_registers_one_option_with_a_sanitize_callback_and_a_page_for_managers(): void {
		image_ar_register_settings();
		$this->assertCount( 1, WP_Stub::$settings );
		[ $group, $name, $args ] = WP_Stub::$settings[0];
		$this->assertSame( array( 'image_ar', 'image_ar_settings' ), array( $group, $name ) );
		$this->assertSame( 'image_ar_sanitize_settings', $args['sanitize_callback'] );
		$this->assertFalse( $args['show_in_rest'] );
		$this->assertSame( array( 'image_ar_service_url', 'image_ar_showcase_id', 'image_ar_position' ), array_column( WP_Stub::$fields, 0 ) );

		image_ar_add_settings_page();
		$this->assertSame( 'manage_options', WP_Stub::$pages[0][2] );
		$this->assertSame( 'image-ar', WP_Stub::$pages[0][3] );
	}

	public function test_settings_page_needs_the_capability_and_carries_the_nonce(): void {
		image_ar_register_settings();
		ob_start();
		image_ar_render_settings_page();
		$this->assertSame( '', ob_get_clean(), 'nothing for a user who may not manage options' );

		WP_Stub::$caps['manage_options'] = true;
		$this->configure( array( 'service_url' => 'https://ar.example.com/x"y' ) );
		ob_start();
		image_ar_render_settings_page();
		$html   = (string) ob_get_clean();
		$inputs = array();
		foreach ( $this->elements( $html, 'input' ) as $input ) {
			$inputs[ $input->getAttribute( 'name' ) ] = $input->getAttribute( 'value' );
		}
		$this->assertSame( 'image_ar', $inputs['option_page'] );
		$this->assertArrayHasKey( '_wpnonce', $inputs );
		$this->assertSame( 'https://ar.example.com/x"y', $inputs['image_ar_settings[service_url]'], 'a stored value is escaped into the field' );
		$this->assertSame( 'options.php', $this->elements( $html, 'form' )[0]->getAttribute( 'action' ) );
		$selected = array_values( array_filter( $this->elements( $html, 'option' ), fn( $o ) => $o->hasAttribute( 'selected' ) ) );
		$this->assertSame( 'after', $selected[0]->getAttribute( 'value' ) );
	}

	/** @return array<string, array{0: mixed, 1: string|null}> */
	public static function service_urls(): array {
		return array(
			'https'              => array( 'https://ar.example.com', 'https://ar.example.com' ),
			'trailing slash'     => array( ' https://ar.example.com/ ', 'https://ar.example.com' ),
			'path prefix'        => array( 'http://shop.example.com/ar/', 'http://shop.example.com/ar' ),
			'port'               => array( 'http://localhost:3000', 'http://localhost:3000' ),
			'emptied'            => array( '  ', '' ),
			'javascript'         => array( 'javascript:alert(1)', null ),
			'no scheme'          => array( 'ar.example.com', null ),
			'ftp'                => array( 'ftp://ar.example.com', null ),
			'credentials'        => array( 'https://user:pw@ar.example.com', null ),
			'query'              => array( 'https://ar.example.com/?x=1', null ),
			'fragment'           => array( 'https://ar.example.com/#x', null ),
			'quote'              => array( 'https://ar.example.com/"onload=', null ),
			'space'              => array( 'https://ar.example.com/a b', null ),
			'not a string'       => array( array( 'https://ar.example.com' ), null ),
			'scheme-relative'    => array( '//ar.example.com', null ),
			'overlong'           => array( 'https://ar.example.com/' . str_repeat( 'a', 3000 ), null ),
		);
	}

	/** @dataProvider service_urls */
	public function test_service_url_sanitizer( $input, ?string $expected ): void {
		$this->assertSame( $expected, image_ar_sanitize_service_url( $input ) );
	}

	public function test_showcase_id_and_position_sanitizers(): void {
		$this->assertSame( 'shw_abcdefghijklmnopqrstuvwx', image_ar_sanitize_showcase_id( ' shw_abcdefghijklmnopqrstuvwx ' ) );
		$this->assertSame( '', image_ar_sanitize_showcase_id( '' ) );
		foreach ( array( 'emb_abcdefgh', 'shw_', 'shw_a"b<c>', 'https://ar.example.com/showcase/shw_abcd', 'shw_' . str_repeat( 'a', 65 ), 42 ) as $bad ) {
			$this->assertNull( image_ar_sanitize_showcase_id( $bad ), var_export( $bad, true ) );
		}
		$this->assertSame( 'before', image_ar_sanitize_position( 'before' ) );
		$this->assertSame( 'off', image_ar_sanitize_position( 'off' ) );
		$this->assertSame( 'after', image_ar_sanitize_position( 'sideways' ) );
		$this->assertSame( 'after', image_ar_sanitize_position( null ) );
	}

	public function test_sanitize_callback_keeps_the_stored_value_of_a_rejected_field_and_says_so(): void {
		$this->configure( array( 'position' => 'before' ) );
		$clean = image_ar_sanitize_settings(
			array(
				'service_url' => 'javascript:alert(1)',
				'showcase_id' => 'shw_newshowcase1',
				'position'    => 'off',
			)
		);
		$this->assertSame(
			array(
				'service_url' => 'https://ar.example.com',
				'showcase_id' => 'shw_newshowcase1',
				'position'    => 'off',
			),
			$clean
		);
		$this->assertSame( array( array( 'image_ar_settings', 'image_ar_service_url', 'error' ) ), WP_Stub::$errors );
	}

	public function test_sanitize_callback_unslashes_and_survives_garbage(): void {
		$clean = image_ar_sanitize_settings( array( 'service_url' => 'https://ar.example.com/', 'showcase_id' => 'shw_abcd\\\'' ) );
		$this->assertSame( 'https://ar.example.com', $clean['service_url'] );
		$this->assertSame( '', $clean['showcase_id'], 'the bad id kept the stored (default) value' );
		$this->assertSame( array( 'image_ar_showcase_id' ), array_column( WP_Stub::$errors, 1 ) );

		WP_Stub::$errors = array();
		$this->assertSame( image_ar_default_settings(), image_ar_sanitize_settings( 'not an array' ) );
	}

	public function test_stored_garbage_reads_as_defaults(): void {
		WP_Stub::$options[ IMAGE_AR_OPTION ] = array( 'service_url' => array( 'x' ), 'position' => 'sideways' );
		$this->assertSame( image_ar_default_settings(), image_ar_get_settings() );
		WP_Stub::$options[ IMAGE_AR_OPTION ] = 'a string';
		$this->assertSame( image_ar_default_settings(), image_ar_get_settings() );
	}

	public function test_uninstall_removes_the_option(): void {
		$this->configure();
		WP_Stub::$options['other_plugin'] = 'kept';
		define( 'WP_UNINSTALL_PLUGIN', 'image-ar/image-ar.php' );
		require dirname( __DIR__ ) . '/image-ar/uninstall.php';
		$this->assertSame( array( 'other_plugin' => 'kept' ), WP_Stub::$options );
	}
}
