import type { MessageKey } from './en';

/** Italian: "tu", as Italian shopping and AR interfaces address visitors; typographic apostrophes (’). */
export const it = {
  'page.showcaseTitle': 'Vetrina AR',
  'page.logoAlt': 'Logo',
  'page.linksLabel': 'Link',
  'page.picturesLabel': 'Immagini',
  'page.empty': 'Ancora nessuna immagine.',
  'page.notFound': 'Pagina non trovata',

  'nav.allPictures': 'Tutte le immagini',
  'nav.back': 'Indietro',
  'nav.previous': 'Precedente',
  'nav.next': 'Successiva',
  'nav.previousPicture': 'Immagine precedente',
  'nav.nextPicture': 'Immagine successiva',
  'nav.close': 'Chiudi',

  'item.picture': 'Immagine',
  'item.largerView': '{title}: vista ingrandita',
  'item.viewDetails': 'Vedi dettagli',
  'item.buy': 'Acquista',
  'item.preparing': 'Preparazione del modello AR…',
  'item.failed': 'Non è stato possibile convertire questa immagine.',

  'ar.viewInYourSpace': 'Guarda nel tuo spazio',
  'ar.viewOnYourWall': 'Guarda sulla tua parete',
  'ar.viewIn3dAr': 'Guarda in 3D / AR',
  'ar.viewInAr': 'Guarda in AR',
  'ar.titleViewInAr': '{title} · Guarda in AR',
  'ar.openOnPhone': 'Apri sul telefono',
  'ar.scanToPlace': 'Inquadra il codice con il telefono per collocare l’opera nel tuo spazio',
  'ar.scanToSeeOnWall': 'Inquadra il codice con il telefono per vedere l’opera sulla tua parete',
  'ar.badge': 'AR',
  'ar.modelBadge': 'Modello AR · {size}',

  'viewer.loading': 'Caricamento dell’anteprima 3D…',
  'viewer.previewAlt': 'Anteprima 3D dell’immagine',
  'viewer.previewAltTitled': 'Anteprima 3D: {title}',

  'wall.seeOnWall': 'Guardala su una parete',
  'wall.heading': '{title} su una parete',
  'wall.caption': 'Disegnato in scala: l’opera misura {size}; accanto, {reference}.',
  'wall.sceneLabel': '{title}, {size}, su una parete accanto a {reference}',
  'wall.referenceSofa': 'un divano largo {size}',
  'wall.referencePerson': 'una persona alta {size}',

  'size.pictureAndFramed': 'Opera {picture} · con cornice {framed}',
  'size.withFramed': '{picture}, {framed} con cornice',
  'count.sizes.one': '{n} formato',
  'count.sizes.other': '{n} formati',

  'label.edition': 'Esemplare {edition}',
  'price.from': 'da {price}',
  'availability.available': 'Disponibile',
  'availability.reserved': 'Riservato',
  'availability.sold': 'Venduto',
  'availability.not_for_sale': 'Non in vendita',

  'status.converting': 'Conversione in corso…',
  'status.notAvailable': 'Non disponibile',
  'status.failed': 'Non è stato possibile creare questo modello AR.',
  'status.deletedTitle': 'Eliminato',
  'status.deleted': 'Questo modello è stato eliminato.',

  'widget.submitting': 'Invio',
  'widget.waiting': 'In attesa',
  'widget.converting': 'Conversione',
  'widget.error': 'Impossibile creare il modello AR: {message}',
  'widget.conversionFailed': 'conversione non riuscita',
  'widget.viewerTitle': 'Visualizzatore AR',
} satisfies Record<MessageKey, string>;
