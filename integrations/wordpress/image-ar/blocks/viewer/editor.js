/* The AR viewer block in the editor: three fields in the sidebar and the server's rendering as the preview.
 * Plain JavaScript against the editor's globals (no build step); the metadata comes from block.json. */
(function (wp) {
  'use strict';
  var el = wp.element.createElement;
  var __ = wp.i18n.__;
  var InspectorControls = wp.blockEditor.InspectorControls;
  var useBlockProps = wp.blockEditor.useBlockProps;
  var PanelBody = wp.components.PanelBody;
  var TextControl = wp.components.TextControl;
  var RangeControl = wp.components.RangeControl;
  var ServerSideRender = wp.serverSideRender;

  wp.blocks.registerBlockType('image-ar/viewer', {
    edit: function (props) {
      var a = props.attributes;
      var set = function (key) {
        return function (value) {
          var next = {};
          next[key] = value;
          props.setAttributes(next);
        };
      };
      return el(
        'div',
        useBlockProps(),
        el(
          InspectorControls,
          null,
          el(
            PanelBody,
            { title: __('AR viewer', 'image-ar') },
            el(TextControl, { label: __('SKU', 'image-ar'), value: a.sku, onChange: set('sku') }),
            el(RangeControl, {
              label: __('Height (px)', 'image-ar'),
              value: a.height,
              min: 200,
              max: 1200,
              step: 10,
              onChange: set('height'),
            }),
            el(TextControl, {
              label: __('Showcase id (empty: the one in Settings)', 'image-ar'),
              value: a.showcase,
              onChange: set('showcase'),
            }),
          ),
        ),
        a.sku
          ? el(ServerSideRender, { block: 'image-ar/viewer', attributes: a })
          : el('p', null, __('AR viewer: enter a SKU in the block settings.', 'image-ar')),
      );
    },
    save: function () {
      return null;
    },
  });
})(window.wp);
