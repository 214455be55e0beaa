import type { MessageKey } from './en';

/** German: formal address ("Ihr"), as galleries write to collectors. "AR" stays AR (as in Apple's and Google's German UIs). */
export const de = {
  'page.showcaseTitle': 'AR-Präsentation',
  'page.logoAlt': 'Logo',
  'page.linksLabel': 'Links',
  'page.picturesLabel': 'Bilder',
  'page.empty': 'Noch keine Bilder.',
  'page.notFound': 'Nicht gefunden',

  'nav.allPictures': 'Alle Bilder',
  'nav.back': 'Zurück',
  'nav.previous': 'Vorheriges',
  'nav.next': 'Nächstes',
  'nav.previousPicture': 'Vorheriges Bild',
  'nav.nextPicture': 'Nächstes Bild',
  'nav.close': 'Schließen',

  'item.picture': 'Bild',
  'item.largerView': '{title}: größere Ansicht',
  'item.viewDetails': 'Details ansehen',
  'item.buy': 'Kaufen',
  'item.preparing': 'Das AR-Modell wird vorbereitet…',
  'item.failed': 'Dieses Bild konnte nicht umgewandelt werden.',

  'ar.viewInYourSpace': 'In Ihrem Raum ansehen',
  'ar.viewOnYourWall': 'An Ihrer Wand ansehen',
  'ar.viewIn3dAr': 'In 3D / AR ansehen',
  'ar.viewInAr': 'In AR ansehen',
  'ar.titleViewInAr': '{title} · In AR ansehen',
  'ar.openOnPhone': 'Auf dem Smartphone öffnen',
  'ar.scanToPlace': 'Scannen Sie den Code mit Ihrem Smartphone, um das Werk in Ihrem Raum zu platzieren',
  'ar.scanToSeeOnWall': 'Scannen Sie den Code mit Ihrem Smartphone, um das Werk an Ihrer Wand zu sehen',
  'ar.badge': 'AR',
  'ar.modelBadge': 'AR-Modell · {size}',

  'viewer.loading': '3D-Vorschau wird geladen…',
  'viewer.previewAlt': '3D-Vorschau des Bildes',
  'viewer.previewAltTitled': '3D-Vorschau: {title}',

  'wall.seeOnWall': 'An der Wand ansehen',
  'wall.heading': '{title} an der Wand',
  'wall.caption': 'Maßstabsgetreu gezeichnet: Das Bild misst {size}; daneben {reference}.',
  // "neben" would need the dative ("neben einem Sofa"): the reference is written in the nominative, so it follows "daneben".
  'wall.sceneLabel': '{title}, {size}, an einer Wand; daneben {reference}',
  'wall.referenceSofa': 'ein Sofa, {size} breit',
  'wall.referencePerson': 'eine Person, {size} groß',

  'size.pictureAndFramed': 'Bild {picture} · gerahmt {framed}',
  'size.withFramed': '{picture}, gerahmt {framed}',
  'count.sizes.one': '{n} Größe',
  'count.sizes.other': '{n} Größen',
  'variant.legend': 'Größe und Rahmen',
  'variant.name': '{size}, {frame}',
  'variant.withMat': '{frame} mit Passepartout',
  'variant.preparing': 'Wird vorbereitet…',

  // "Exemplar 3/25" is how German catalogues number a copy ("Auflage" is the edition's size).
  'item.pictureNumber': 'Bild {n}',

  'frame.thin': 'Schmaler Rahmen {colour}',
  'frame.classic': 'Klassischer Rahmen {colour}',
  'frame.float': 'Schattenfugenrahmen {colour}',
  'frame.canvas': 'Leinwand auf Keilrahmen',
  'frame.colour': 'in {colour}',
  'frame.withMat': '{frame}, Passepartout in {colour}, {width}',
  'colour.black': 'Schwarz',
  'colour.white': 'Weiß',
  'colour.oak': 'Eiche',
  'colour.walnut': 'Nussbaum',
  'colour.gold': 'Gold',
  'colour.silver': 'Silber',

  'label.edition': 'Exemplar {edition}',
  'price.from': 'ab {price}',
  'availability.available': 'Verfügbar',
  'availability.reserved': 'Reserviert',
  'availability.sold': 'Verkauft',
  'availability.not_for_sale': 'Unverkäuflich',

  'status.converting': 'Wird umgewandelt…',
  'status.notAvailable': 'Nicht verfügbar',
  'status.failed': 'Dieses AR-Modell konnte nicht erstellt werden.',
  'status.deletedTitle': 'Gelöscht',
  'status.deleted': 'Dieses Modell wurde gelöscht.',

  'widget.submitting': 'Wird gesendet',
  'widget.waiting': 'In der Warteschlange',
  'widget.converting': 'Wird umgewandelt',
  'widget.error': 'Das AR-Modell konnte nicht erstellt werden: {message}',
  'widget.conversionFailed': 'Umwandlung fehlgeschlagen',
  'widget.viewerTitle': 'AR-Ansicht',
} satisfies Record<MessageKey, string>;
