<?php
/**
 * PHPUnit bootstrap: the WordPress and WooCommerce functions the plugin calls, as small stand-ins that record
 * what the plugin registers (hooks, shortcodes, blocks, settings, oEmbed providers, scripts) and escape as
 * WordPress does for these inputs (htmlspecialchars with quotes), then the plugin itself.
 *
 * @package ImageAr
 */

define( 'ABSPATH', __DIR__ . '/' );

/** What the plugin did, per test (ImageArTestCase::setUp() empties it). */
final class WP_Stub {
	/** @var array<string, mixed> Options by name. */
	public static array $options = array();
	/** @var array<int, array{0: string, 1: mixed, 2: int}> add_action/add_filter calls. */
	public static array $hooks = array();
	/** @var array<string, callable> */
	public static array $shortcodes = array();
	/** @var array<int, array{0: string, 1: array}> */
	public static array $blocks = array();
	/** @var array<int, array> register_setting calls. */
	public static array $settings = array();
	/** @var array<int, array> add_settings_field calls. */
	public static array $fields = array();
	/** @var array<int, array> add_options_page calls. */
	public static array $pages = array();
	/** @var array<int, array{0: string, 1: string, 2: string}> */
	public static array $errors = array();
	/** @var array<string, array> Enqueued scripts by handle. */
	public static array $scripts = array();
	/** @var array<int, array{0: string, 1: string, 2: bool}> */
	public static array $oembed = array();
	/** @var array<string, bool> Capabilities of the current user. */
	public static array $caps = array();
	public static string $locale = 'en_US';
	/** @var array<int, WC_Product> Products by id (wc_get_product). */
	public static array $products = array();
	public static ?WC_Product $current_product = null;
	/** @var array<int, array{0: string, 1: mixed, 2: int}> The hooks the plugin's main file added when it loaded. */
	public static array $loaded_hooks = array();

	public static function reset(): void {
		self::$options         = array();
		self::$hooks           = array();
		self::$shortcodes      = array();
		self::$blocks          = array();
		self::$settings        = array();
		self::$fields          = array();
		self::$pages           = array();
		self::$errors          = array();
		self::$scripts         = array();
		self::$oembed          = array();
		self::$caps            = array();
		self::$locale          = 'en_US';
		self::$products        = array();
		self::$current_product = null;
	}

	/** @return string[] The callbacks hooked to an action or filter. */
	public static function hooked( string $hook ): array {
		$found = array();
		foreach ( self::$hooks as $h ) {
			if ( $h[0] === $hook ) {
				$found[] = $h[1];
			}
		}
		return $found;
	}
}

// Hooks, shortcodes, blocks.
function add_action( $hook, $callback, $priority = 10, $args = 1 ) {
	WP_Stub::$hooks[] = array( $hook, $callback, $priority );
	return true;
}
function add_filter( $hook, $callback, $priority = 10, $args = 1 ) {
	WP_Stub::$hooks[] = array( $hook, $callback, $priority );
	return true;
}
function add_shortcode( $tag, $callback ) {
	WP_Stub::$shortcodes[ $tag ] = $callback;
}
function shortcode_atts( $pairs, $atts, $shortcode = '' ) {
	$out = array();
	foreach ( $pairs as $name => $default ) {
		$out[ $name ] = array_key_exists( $name, (array) $atts ) ? $atts[ $name ] : $default;
	}
	return $out;
}
function register_block_type( $block_type, $args = array() ) {
	WP_Stub::$blocks[] = array( $block_type, $args );
	return true;
}

// Options and the Settings API.
function get_option( $name, $default = false ) {
	return array_key_exists( $name, WP_Stub::$options ) ? WP_Stub::$options[ $name ] : $default;
}
function update_option( $name, $value ) {
	WP_Stub::$options[ $name ] = $value;
	return true;
}
function delete_option( $name ) {
	unset( WP_Stub::$options[ $name ] );
	return true;
}
function register_setting( $group, $name, $args = array() ) {
	WP_Stub::$settings[] = array( $group, $name, $args );
}
function add_settings_section( ...$args ) {}
function add_settings_field( ...$args ) {
	WP_Stub::$fields[] = $args;
}
function add_options_page( ...$args ) {
	WP_Stub::$pages[] = $args;
	return 'settings_page_image-ar';
}
function add_settings_error( $setting, $code, $message, $type = 'error' ) {
	WP_Stub::$errors[] = array( $setting, $code, $type );
}
function current_user_can( $capability ) {
	return ! empty( WP_Stub::$caps[ $capability ] );
}
function settings_fields( $group ) {
	echo '<input type="hidden" name="option_page" value="' . esc_attr( $group ) . '" /><input type="hidden" name="_wpnonce" value="nonce-' . esc_attr( $group ) . '-options" />';
}
function do_settings_sections( $page ) {
	foreach ( WP_Stub::$fields as $field ) {
		call_user_func( $field[2] );
	}
}
function submit_button() {
	echo '<input type="submit" />';
}
function get_admin_page_title() {
	return 'Image AR';
}
function selected( $selected, $current, $display = true ) {
	$result = (string) $selected === (string) $current ? ' selected=\'selected\'' : '';
	if ( $display ) {
		echo $result; // phpcs:ignore
	}
	return $result;
}
function __return_false() {
	return false;
}

// Escaping, sanitising, i18n: WordPress' results for the inputs these tests use.
function esc_attr( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}
function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}
function esc_url_raw( $url, $protocols = null ) {
	$url    = trim( (string) $url );
	$scheme = strtolower( (string) parse_url( $url, PHP_URL_SCHEME ) );
	if ( '' === $url || ! in_array( $scheme, $protocols ?? array( 'http', 'https' ), true ) ) {
		return '';
	}
	return $url;
}
function esc_url( $url, $protocols = null ) {
	return esc_attr( esc_url_raw( $url, $protocols ) );
}
function wp_json_encode( $data, $options = 0, $depth = 512 ) {
	return json_encode( $data, $options, $depth );
}
function wp_parse_url( $url, $component = -1 ) {
	return parse_url( $url, $component );
}
function wp_unslash( $value ) {
	return is_array( $value ) ? array_map( 'wp_unslash', $value ) : ( is_string( $value ) ? stripslashes( $value ) : $value );
}
function untrailingslashit( $value ) {
	return rtrim( $value, '/\\' );
}
function __( $text, $domain = 'default' ) {
	return $text;
}
function esc_html__( $text, $domain = 'default' ) {
	return esc_html( $text );
}
function determine_locale() {
	return WP_Stub::$locale;
}

// Scripts and oEmbed.
function wp_enqueue_script( $handle, $src = '', $deps = array(), $ver = false, $args = array() ) {
	WP_Stub::$scripts[ $handle ] = array(
		'src'  => $src,
		'deps' => $deps,
		'ver'  => $ver,
		'args' => $args,
	);
}
function wp_oembed_add_provider( $format, $provider, $regex = false ) {
	WP_Stub::$oembed[] = array( $format, $provider, $regex );
}

// WooCommerce.
class WC_Product {
	/** @param int[] $children */
	public function __construct( private int $id, private string $sku, private string $type = 'simple', private array $children = array() ) {}
	public function get_id(): int {
		return $this->id;
	}
	public function get_sku(): string {
		return $this->sku;
	}
	public function is_type( $type ): bool {
		return $type === $this->type;
	}
	/** @return int[] */
	public function get_children(): array {
		return $this->children;
	}
}
function wc_get_product( $id = false ) {
	if ( false === $id ) {
		return WP_Stub::$current_product;
	}
	return WP_Stub::$products[ $id ] ?? false;
}

function is_multisite() {
	return false;
}

require_once dirname( __DIR__ ) . '/image-ar/image-ar.php';
// What loading the plugin hooked, before any test empties the recorder.
WP_Stub::$loaded_hooks = WP_Stub::$hooks;

/** Every test starts from an empty WordPress and a configured plugin unless it says otherwise. */
abstract class ImageArTestCase extends PHPUnit\Framework\TestCase {
	protected function setUp(): void {
		WP_Stub::reset();
		$GLOBALS['product'] = null;
	}

	protected function configure( array $settings = array() ): void {
		WP_Stub::$options[ IMAGE_AR_OPTION ] = array_merge(
			array(
				'service_url' => 'https://ar.example.com',
				'showcase_id' => 'shw_abcdefghijklmnopqrstuvwx',
				'position'    => 'after',
			),
			$settings
		);
	}

	/**
	 * The elements of an HTML fragment, read by PHP's HTML parser (libxml): attributes decoded.
	 *
	 * @return DOMElement[]
	 */
	protected function elements( string $html, string $tag = '*' ): array {
		$doc = new DOMDocument();
		$this->assertTrue( $doc->loadHTML( '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>' . $html . '</body></html>', LIBXML_NOERROR ) );
		$found = array();
		foreach ( $doc->getElementsByTagName( 'body' )->item( 0 )->getElementsByTagName( $tag ) as $el ) {
			$found[] = $el;
		}
		return $found;
	}
}
