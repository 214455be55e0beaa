/**
 * The English catalogue: the source of every message key ({@link MessageKey}); the other locales must
 * have exactly these keys (`satisfies Record<MessageKey, string>`). Values are plain text with `{name}`
 * placeholders; the page HTML-escapes the result. Decorative glyphs the pages put around words (`✕`, `‹`,
 * `›`) are not part of the messages: they are the same in every language and belong in `aria-hidden`
 * markup. The comment above each group names where the pages show it (apps/api/src/public-pages and
 * apps/api/assets/widget.js).
 */
export const en = {
  // page-shell.ts, showcase-page.ts, showcase-layouts.ts: the showcase page's frame.
  'page.showcaseTitle': 'AR showcase',
  'page.logoAlt': 'Logo',
  'page.linksLabel': 'Links',
  'page.picturesLabel': 'Pictures',
  'page.empty': 'No pictures yet.',
  // showcase-page.controller.ts and embed.service.ts: the plain 404 body and page title.
  'page.notFound': 'Not found',

  // item-page.ts (pager) and showcase-card.ts (minimal layout steps).
  'nav.allPictures': 'All pictures',
  'nav.back': 'Back',
  'nav.previous': 'Previous',
  'nav.next': 'Next',
  'nav.previousPicture': 'Previous picture',
  'nav.nextPicture': 'Next picture',
  // embed-page.ts: the QR dialog's close button.
  'nav.close': 'Close',

  // showcase-card.ts, item-page.ts, embed-page.ts: one item.
  'item.picture': 'Picture',
  'item.largerView': '{title}: larger view',
  'item.viewDetails': 'View details',
  'item.buy': 'Buy',
  'item.preparing': 'Preparing the AR model…',
  'item.failed': 'This picture could not be converted.',

  // showcase-card.ts and embed-page.ts: launching AR / 3D.
  'ar.viewInYourSpace': 'View in your space',
  'ar.viewOnYourWall': 'View on your wall',
  'ar.viewIn3dAr': 'View in 3D / AR',
  'ar.viewInAr': 'View in AR',
  'ar.titleViewInAr': '{title} · View in AR',
  'ar.openOnPhone': 'Open on your phone',
  'ar.scanToPlace': 'Scan with your phone to place it in your space',
  'ar.scanToSeeOnWall': 'Scan with your phone to see it on your wall',
  'ar.badge': 'AR',
  'ar.modelBadge': 'AR model · {size}',

  // embed-page.ts: the desktop 3D viewer.
  'viewer.loading': 'Loading 3D preview…',
  'viewer.previewAlt': '3D preview of the picture',
  'viewer.previewAltTitled': '3D preview of {title}',

  // wall-preview.ts and item-page.ts (wallPage): "See it on a wall". {size} and {reference}'s {size} are
  // formatted sizes ("24 × 36 in (61 × 91 cm)", "84 in (213 cm)", "5 ft 7 in (170 cm)").
  'wall.seeOnWall': 'See it on a wall',
  'wall.heading': '{title} on a wall',
  'wall.caption': 'Drawn to scale: the picture is {size}; next to it, {reference}.',
  'wall.sceneLabel': '{title}, {size}, on a wall next to {reference}',
  'wall.referenceSofa': 'a sofa {size} wide',
  'wall.referencePerson': 'a person {size} tall',

  // room/room-page.ts (the room view, docs/api.md "On your wall, from a photo") and its links on the item, wall,
  // together and embed pages. {title} a picture's title; {size} a formatted size; {unit} cm or in.
  'room.open': 'On your wall, from a photo',
  'room.needsScript': 'needs JavaScript',
  'room.noScript': 'This view needs JavaScript: your photo is drawn in your browser and never uploaded.',
  'room.heading': '{title} on your wall',
  'room.headingSet': 'Your pictures on your wall',
  'room.intro':
    'Put a sheet of paper of known size flat on your wall, take a photo, and see the picture there at its real size. Your photo stays on this device: it is never uploaded.',
  'room.choose': 'Choose a photo of your wall',
  'room.reference': 'Reference on the wall',
  'room.a4': 'A4 sheet (21 × 29.7 cm)',
  'room.letter': 'US Letter sheet (8.5 × 11 in)',
  'room.custom': 'Something else of known size',
  'room.width': 'Width ({unit})',
  'room.height': 'Height ({unit})',
  'room.steps':
    'Drag the four round handles onto the corners of the reference; a selected handle also moves with the arrow keys (with Shift, ten times as far). Then drag the picture where you want it, or move it with the arrow keys.',
  'room.cornerTl': 'Reference corner, top left',
  'room.cornerTr': 'Reference corner, top right',
  'room.cornerBr': 'Reference corner, bottom right',
  'room.cornerBl': 'Reference corner, bottom left',
  'room.move': 'Move {title}',
  'room.photoAlt': 'Your photo of your wall',
  'room.placed': 'Shown at its real size: {size}.',
  'room.placedSet': 'Shown at their real size. Overall size: {size}.',
  'room.badQuad': 'Place the four handles on the corners of the reference.',
  'room.needSize': 'Type the width and height of your reference.',
  'room.decodeError': 'This photo could not be opened. Please try another one.',
  'room.save': 'Save image',
  'room.saveError': 'The image could not be saved in this browser.',

  // showcase-page.ts (the cards' checkbox and the bar) and together-page.ts: pictures seen together on a
  // wall (docs/gallery-walls.md). {n} is 2 to 12; {size} a formatted size; {titles} the titles, comma-separated.
  'together.hang': 'Hang together',
  'together.hangTitle': 'Hang together: {title}',
  'together.chosen': '{n} chosen',
  'together.see': 'See them together on your wall',
  'together.heading': 'Your pictures together',
  'together.arrangement': 'Arrangement',
  'together.row': 'Row',
  'together.grid': 'Grid',
  'together.salon': 'Salon',
  'together.size': 'Overall size: {size}',
  'together.caption': 'Drawn to scale: the pictures together measure {size}; next to them, {reference}.',
  'together.sceneLabel': '{titles}, together {size}, on a wall next to {reference}',
  'together.pictures': 'Pictures in this set',
  'together.modelAlt': '3D preview of the pictures together',
  'together.scan': 'Scan with your phone to see them on your wall',
  'together.errorTitle': 'These pictures cannot be hung together',
  'together.errorInvalid': 'Choose 2 to 12 pictures of this showcase that hang on a wall.',
  'together.errorNotReady': 'Some of these pictures are not ready yet. Please try again in a moment.',
  'together.walls': 'Gallery walls',

  // page-locale.ts framedSize: every page's size with a frame (libs/catalogue formatDimensions writes both sizes).
  'size.withFramed': '{picture}, {framed} framed',
  // Plural pairs: pick with translateCount (Intl.PluralRules), never by hand.
  'count.sizes.one': '{n} size',
  'count.sizes.other': '{n} sizes',

  // item-page.ts: the size and frame selector of an item sold in several variants. A variant without a name
  // is called by its size in the page's unit and its frame: {size} "50 × 70 cm", {frame} the frame's colour
  // (colour.*) or kind (frame.*), with variant.withMat when it has a mat.
  'variant.legend': 'Size and frame',
  'variant.name': '{size}, {frame}',
  'variant.withMat': '{frame} with mat',
  'variant.preparing': 'Preparing…',

  // showcase-page.service.ts: the title of a picture that has none (no banner title, no filename).
  'item.pictureNumber': 'Picture {n}',

  // showcase-items.ts frameLabel (cards, item page): the frame and mat. {colour} in a frame is the whole
  // colour phrase (frame.colour, or nothing when the frame has no named colour); in frame.withMat the bare colour.
  'frame.thin': 'Thin {colour} frame',
  'frame.classic': 'Classic {colour} frame',
  'frame.float': 'Float {colour} frame',
  'frame.canvas': 'Canvas wrap',
  'frame.colour': '{colour}',
  'frame.withMat': '{frame}, {colour} mat {width}',
  'colour.black': 'black',
  'colour.white': 'white',
  'colour.oak': 'oak',
  'colour.walnut': 'walnut',
  'colour.gold': 'gold',
  'colour.silver': 'silver',

  // The wall label (formatLabel) and price lines.
  'label.edition': 'Edition {edition}',
  'price.from': 'from {price}',
  'availability.available': 'Available',
  'availability.reserved': 'Reserved',
  'availability.sold': 'Sold',
  'availability.not_for_sale': 'Not for sale',

  // embed-page.ts and embed.service.ts: the embed page's states (page titles and messages).
  'status.converting': 'Converting…',
  'status.notAvailable': 'Not available',
  'status.failed': 'This AR model could not be created.',
  'status.deletedTitle': 'Deleted',
  'status.deleted': 'This model has been deleted.',

  // apps/api/assets/widget.js: the widget's progress label, error box and iframe title.
  'widget.submitting': 'Submitting',
  'widget.waiting': 'Waiting',
  'widget.converting': 'Converting',
  'widget.error': 'Could not create the AR model: {message}',
  'widget.conversionFailed': 'conversion failed',
  'widget.viewerTitle': 'AR viewer',
};

/** Every message the public pages show; defined by the English catalogue. */
export type MessageKey = keyof typeof en;
