<?php
/**
 * Deleting the plugin removes its settings (single site, and every site of a network).
 *
 * @package ImageAr
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

delete_option( 'image_ar_settings' );

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $image_ar_site_id ) {
		switch_to_blog( $image_ar_site_id );
		delete_option( 'image_ar_settings' );
		restore_current_blog();
	}
}
