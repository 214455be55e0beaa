<?php
/**
 * WooCommerce single product pages: the viewer under (or above) the add-to-cart form, for the product's SKU.
 *
 * A variable product's variations are followed by the widget itself (jQuery found_variation / reset_data on
 * form.variations_form); the container starts with the product's own SKU, or its first variation's.
 *
 * @package ImageAr
 */

defined( 'ABSPATH' ) || exit;

/** The WooCommerce action each position setting hooks. */
const IMAGE_AR_PRODUCT_HOOKS = array(
	'after'  => 'woocommerce_after_add_to_cart_form',
	'before' => 'woocommerce_before_add_to_cart_form',
);

/** Hooks the product viewer where the settings say (init); nothing for 'off'. */
function image_ar_register_product_hook(): void {
	$position = image_ar_get_settings()['position'];
	if ( isset( IMAGE_AR_PRODUCT_HOOKS[ $position ] ) ) {
		add_action( IMAGE_AR_PRODUCT_HOOKS[ $position ], 'image_ar_render_product_viewer' );
	}
}

/**
 * The SKU a product page starts with: its own, else (variable products) its first variation's that has one.
 *
 * @param WC_Product $product The product.
 * @return string '' when none has a SKU.
 */
function image_ar_product_sku( $product ): string {
	$sku = (string) $product->get_sku();
	if ( '' !== $sku || ! $product->is_type( 'variable' ) ) {
		return $sku;
	}
	foreach ( $product->get_children() as $variation_id ) {
		$variation = wc_get_product( $variation_id );
		if ( $variation && '' !== (string) $variation->get_sku() ) {
			return (string) $variation->get_sku();
		}
	}
	return '';
}

/** Prints the viewer for the page's product (the add-to-cart form hooks). */
function image_ar_render_product_viewer(): void {
	global $product;
	if ( ! $product instanceof WC_Product ) {
		return;
	}
	echo image_ar_viewer_html( // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- built with esc_attr in image_ar_viewer_html().
		array(
			'sku'   => image_ar_product_sku( $product ),
			'class' => 'image-ar-viewer--product',
		)
	);
}
