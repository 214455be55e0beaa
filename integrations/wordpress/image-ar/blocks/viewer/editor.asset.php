<?php
/**
 * The editor script's dependencies, as @wordpress/scripts would write them (block.json's editorScript).
 *
 * @package ImageAr
 */

return array(
	'dependencies' => array( 'wp-block-editor', 'wp-blocks', 'wp-components', 'wp-element', 'wp-i18n', 'wp-server-side-render' ),
	'version'      => '1.0.0',
);
