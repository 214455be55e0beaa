<?php
/**
 * Plugin Name:       Image AR
 * Plugin URI:        https://github.com/image-ar/image-ar-service
 * Description:       Shows your pictures in AR on WooCommerce product pages, by SKU, from your image-to-AR service: a viewer under the add-to-cart form that follows the chosen variation, an [image_ar] shortcode, a block, and showcase links that embed when pasted.
 * Version:           1.0.0
 * Requires at least: 6.3
 * Requires PHP:      8.1
 * Author:            image-ar-service
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       image-ar
 * WC requires at least: 7.0
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

define( 'IMAGE_AR_VERSION', '1.0.0' );
define( 'IMAGE_AR_DIR', __DIR__ . '/' );
define( 'IMAGE_AR_OPTION', 'image_ar_settings' );

require_once IMAGE_AR_DIR . 'includes/settings.php';
require_once IMAGE_AR_DIR . 'includes/render.php';
require_once IMAGE_AR_DIR . 'includes/woocommerce.php';
require_once IMAGE_AR_DIR . 'includes/shortcode.php';
require_once IMAGE_AR_DIR . 'includes/block.php';
require_once IMAGE_AR_DIR . 'includes/oembed.php';

add_action( 'admin_init', 'image_ar_register_settings' );
add_action( 'admin_menu', 'image_ar_add_settings_page' );
add_action( 'init', 'image_ar_register_shortcode' );
add_action( 'init', 'image_ar_register_block' );
add_action( 'init', 'image_ar_register_oembed_providers' );
add_action( 'init', 'image_ar_register_product_hook' );
