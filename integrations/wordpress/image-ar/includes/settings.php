<?php
/**
 * Settings page (Settings API): the service URL, the showcase id and where the viewer goes on product pages.
 *
 * One option, image_ar_settings, an array. options.php checks the nonce written by settings_fields() and the
 * manage_options capability before it calls the sanitize callback below.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/** Where the viewer can go on a product page: the setting's values. */
const IMAGE_AR_POSITIONS = array( 'after', 'before', 'off' );

/**
 * The defaults: nothing configured, the viewer after the add-to-cart form.
 *
 * @return array{service_url: string, showcase_id: string, position: string}
 */
function image_ar_default_settings(): array {
	return array(
		'service_url' => '',
		'showcase_id' => '',
		'position'    => 'after',
	);
}

/**
 * The stored settings over the defaults; what a stored value lacks or got wrong reads as its default.
 *
 * @return array{service_url: string, showcase_id: string, position: string}
 */
function image_ar_get_settings(): array {
	$stored   = get_option( IMAGE_AR_OPTION, array() );
	$settings = image_ar_default_settings();
	if ( is_array( $stored ) ) {
		foreach ( $settings as $key => $default ) {
			if ( isset( $stored[ $key ] ) && is_string( $stored[ $key ] ) ) {
				$settings[ $key ] = $stored[ $key ];
			}
		}
	}
	if ( ! in_array( $settings['position'], IMAGE_AR_POSITIONS, true ) ) {
		$settings['position'] = 'after';
	}
	return $settings;
}

/**
 * A service URL as stored: http(s), a host, no credentials, query or fragment, no trailing slash.
 *
 * @param mixed $value What the form sent.
 * @return string|null The URL, '' for an emptied field, null when it is not a usable address.
 */
function image_ar_sanitize_service_url( $value ): ?string {
	if ( ! is_string( $value ) ) {
		return null;
	}
	$value = trim( $value );
	if ( '' === $value ) {
		return '';
	}
	if ( strlen( $value ) > 2048 || preg_match( '/[\s<>"\'`\\\\]/', $value ) ) {
		return null;
	}
	$parts = wp_parse_url( $value );
	if ( ! is_array( $parts ) || empty( $parts['scheme'] ) || empty( $parts['host'] ) ) {
		return null;
	}
	if ( ! in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true ) ) {
		return null;
	}
	if ( isset( $parts['user'] ) || isset( $parts['pass'] ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) ) {
		return null;
	}
	$url = esc_url_raw( $value, array( 'http', 'https' ) );
	return '' === $url ? null : untrailingslashit( $url );
}

/**
 * A showcase id as stored: the public `shw_…` id of a showcase.
 *
 * @param mixed $value What the form sent.
 * @return string|null The id, '' for an emptied field, null when it is not a showcase id.
 */
function image_ar_sanitize_showcase_id( $value ): ?string {
	if ( ! is_string( $value ) ) {
		return null;
	}
	$value = trim( $value );
	if ( '' === $value ) {
		return '';
	}
	return 1 === preg_match( '/^shw_[A-Za-z0-9_-]{4,64}$/', $value ) ? $value : null;
}

/**
 * A viewer position as stored.
 *
 * @param mixed $value What the form sent.
 * @return string One of IMAGE_AR_POSITIONS; anything else reads 'after'.
 */
function image_ar_sanitize_position( $value ): string {
	return is_string( $value ) && in_array( $value, IMAGE_AR_POSITIONS, true ) ? $value : 'after';
}

/**
 * The option's sanitize callback: a field that does not pass keeps its stored value, with a notice.
 *
 * @param mixed $input The submitted array.
 * @return array{service_url: string, showcase_id: string, position: string}
 */
function image_ar_sanitize_settings( $input ): array {
	$current = image_ar_get_settings();
	$input   = is_array( $input ) ? wp_unslash( $input ) : array();
	$clean   = $current;

	$url = image_ar_sanitize_service_url( $input['service_url'] ?? '' );
	if ( null === $url ) {
		add_settings_error( IMAGE_AR_OPTION, 'image_ar_service_url', __( 'The service URL must be an http or https address without query or credentials, such as https://ar.example.com. It was not changed.', 'image-ar' ) );
	} else {
		$clean['service_url'] = $url;
	}

	$id = image_ar_sanitize_showcase_id( $input['showcase_id'] ?? '' );
	if ( null === $id ) {
		add_settings_error( IMAGE_AR_OPTION, 'image_ar_showcase_id', __( 'The showcase id starts with shw_ (the last part of the showcase link). It was not changed.', 'image-ar' ) );
	} else {
		$clean['showcase_id'] = $id;
	}

	$clean['position'] = image_ar_sanitize_position( $input['position'] ?? 'after' );
	return $clean;
}

/** Registers the option, its section and fields (admin_init). */
function image_ar_register_settings(): void {
	register_setting(
		'image_ar',
		IMAGE_AR_OPTION,
		array(
			'type'              => 'array',
			'sanitize_callback' => 'image_ar_sanitize_settings',
			'default'           => image_ar_default_settings(),
			'show_in_rest'      => false,
		)
	);
	add_settings_section( 'image_ar_main', __( 'AR service', 'image-ar' ), '__return_false', 'image-ar' );
	add_settings_field( 'image_ar_service_url', __( 'Service URL', 'image-ar' ), 'image_ar_render_service_url_field', 'image-ar', 'image_ar_main', array( 'label_for' => 'image_ar_service_url' ) );
	add_settings_field( 'image_ar_showcase_id', __( 'Showcase id', 'image-ar' ), 'image_ar_render_showcase_id_field', 'image-ar', 'image_ar_main', array( 'label_for' => 'image_ar_showcase_id' ) );
	add_settings_field( 'image_ar_position', __( 'Viewer on product pages', 'image-ar' ), 'image_ar_render_position_field', 'image-ar', 'image_ar_main', array( 'label_for' => 'image_ar_position' ) );
}

/** Settings > Image AR, for those who may manage options (admin_menu). */
function image_ar_add_settings_page(): void {
	add_options_page( __( 'Image AR', 'image-ar' ), __( 'Image AR', 'image-ar' ), 'manage_options', 'image-ar', 'image_ar_render_settings_page' );
}

/** The service URL field. */
function image_ar_render_service_url_field(): void {
	$settings = image_ar_get_settings();
	printf(
		'<input type="url" class="regular-text" id="image_ar_service_url" name="%1$s[service_url]" value="%2$s" placeholder="https://ar.example.com" /><p class="description">%3$s</p>',
		esc_attr( IMAGE_AR_OPTION ),
		esc_attr( $settings['service_url'] ),
		esc_html__( 'The address of your image-to-AR service.', 'image-ar' )
	);
}

/** The showcase id field. */
function image_ar_render_showcase_id_field(): void {
	$settings = image_ar_get_settings();
	printf(
		'<input type="text" class="regular-text code" id="image_ar_showcase_id" name="%1$s[showcase_id]" value="%2$s" placeholder="shw_…" /><p class="description">%3$s</p>',
		esc_attr( IMAGE_AR_OPTION ),
		esc_attr( $settings['showcase_id'] ),
		esc_html__( 'The showcase that holds your catalogue; product SKUs are looked up in it.', 'image-ar' )
	);
}

/** The position field. */
function image_ar_render_position_field(): void {
	$settings = image_ar_get_settings();
	$labels   = array(
		'after'  => __( 'After the add-to-cart button', 'image-ar' ),
		'before' => __( 'Before the add-to-cart button', 'image-ar' ),
		'off'    => __( 'Off (shortcode and block only)', 'image-ar' ),
	);
	printf( '<select id="image_ar_position" name="%s[position]">', esc_attr( IMAGE_AR_OPTION ) );
	foreach ( $labels as $value => $label ) {
		printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $value ), selected( $settings['position'], $value, false ), esc_html( $label ) );
	}
	echo '</select>';
}

/** The settings page (Settings > Image AR shows the sanitize notices itself: options-head.php). */
function image_ar_render_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	echo '<div class="wrap"><h1>' . esc_html( get_admin_page_title() ) . '</h1>';
	echo '<form action="options.php" method="post">';
	settings_fields( 'image_ar' );
	do_settings_sections( 'image-ar' );
	submit_button();
	echo '</form></div>';
}
