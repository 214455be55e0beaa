import type { MessageKey } from './en';

/** Dutch: formal "u", as galleries address collectors. */
export const nl = {
  'page.showcaseTitle': 'AR-presentatie',
  'page.logoAlt': 'Logo',
  'page.linksLabel': 'Links',
  'page.picturesLabel': 'Afbeeldingen',
  'page.empty': 'Nog geen afbeeldingen.',
  'page.notFound': 'Niet gevonden',

  'nav.allPictures': 'Alle afbeeldingen',
  'nav.back': 'Terug',
  'nav.previous': 'Vorige',
  'nav.next': 'Volgende',
  'nav.previousPicture': 'Vorige afbeelding',
  'nav.nextPicture': 'Volgende afbeelding',
  'nav.close': 'Sluiten',

  'item.picture': 'Afbeelding',
  'item.largerView': '{title}: grotere weergave',
  'item.viewDetails': 'Details bekijken',
  'item.buy': 'Kopen',
  'item.preparing': 'Het AR-model wordt voorbereid…',
  'item.failed': 'Deze afbeelding kon niet worden omgezet.',

  'ar.viewInYourSpace': 'Bekijk in uw ruimte',
  'ar.viewOnYourWall': 'Bekijk aan uw muur',
  'ar.viewIn3dAr': 'Bekijk in 3D / AR',
  'ar.viewInAr': 'Bekijk in AR',
  'ar.titleViewInAr': '{title} · Bekijk in AR',
  'ar.openOnPhone': 'Openen op uw telefoon',
  'ar.scanToPlace': 'Scan met uw telefoon om het werk in uw ruimte te plaatsen',
  'ar.scanToSeeOnWall': 'Scan met uw telefoon om het werk aan uw muur te zien',
  'ar.badge': 'AR',
  'ar.modelBadge': 'AR-model · {size}',

  'viewer.loading': '3D-voorbeeld laden…',
  'viewer.previewAlt': '3D-voorbeeld van de afbeelding',
  'viewer.previewAltTitled': '3D-voorbeeld: {title}',

  'wall.seeOnWall': 'Bekijk aan een muur',
  'wall.heading': '{title} aan een muur',
  'wall.caption': 'Op schaal getekend: het werk meet {size}; ernaast {reference}.',
  'wall.sceneLabel': '{title}, {size}, aan een muur naast {reference}',
  'wall.referenceSofa': 'een bank van {size} breed',
  'wall.referencePerson': 'een persoon van {size} lang',

  'size.pictureAndFramed': 'Werk {picture} · ingelijst {framed}',
  'size.withFramed': '{picture}, ingelijst {framed}',
  'count.sizes.one': '{n} formaat',
  'count.sizes.other': '{n} formaten',

  'label.edition': 'Exemplaar {edition}',
  'price.from': 'vanaf {price}',
  'availability.available': 'Beschikbaar',
  'availability.reserved': 'Gereserveerd',
  'availability.sold': 'Verkocht',
  'availability.not_for_sale': 'Niet te koop',

  'status.converting': 'Bezig met omzetten…',
  'status.notAvailable': 'Niet beschikbaar',
  'status.failed': 'Dit AR-model kon niet worden gemaakt.',
  'status.deletedTitle': 'Verwijderd',
  'status.deleted': 'Dit model is verwijderd.',

  'widget.submitting': 'Verzenden',
  'widget.waiting': 'Wachten',
  'widget.converting': 'Omzetten',
  'widget.error': 'Het AR-model kon niet worden gemaakt: {message}',
  'widget.conversionFailed': 'omzetten mislukt',
  'widget.viewerTitle': 'AR-viewer',
} satisfies Record<MessageKey, string>;
