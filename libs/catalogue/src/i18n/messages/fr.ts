import type { MessageKey } from './en';

/**
 * French: "vous", typographic apostrophes (’), and a no-break space (U+00A0) before ":" and ";" as French
 * typography requires (it also keeps the mark from wrapping onto a line of its own). "AR" as in Apple's
 * and Google's French UIs, where "RA" would puzzle more visitors than it helps.
 */
export const fr = {
  'page.showcaseTitle': 'Vitrine AR',
  'page.logoAlt': 'Logo',
  'page.linksLabel': 'Liens',
  'page.picturesLabel': 'Images',
  'page.empty': 'Aucune image pour le moment.',
  'page.notFound': 'Page introuvable',

  'nav.allPictures': 'Toutes les images',
  'nav.back': 'Retour',
  'nav.previous': 'Précédente',
  'nav.next': 'Suivante',
  'nav.previousPicture': 'Image précédente',
  'nav.nextPicture': 'Image suivante',
  'nav.close': 'Fermer',

  'item.picture': 'Image',
  'item.largerView': '{title}\u00a0: vue agrandie',
  'item.viewDetails': 'Voir les détails',
  'item.buy': 'Acheter',
  'item.preparing': 'Préparation du modèle AR…',
  'item.failed': 'Cette image n’a pas pu être convertie.',

  'ar.viewInYourSpace': 'Voir chez vous',
  'ar.viewOnYourWall': 'Voir sur votre mur',
  'ar.viewIn3dAr': 'Voir en 3D / AR',
  'ar.viewInAr': 'Voir en AR',
  'ar.titleViewInAr': '{title} · Voir en AR',
  'ar.openOnPhone': 'Ouvrir sur votre téléphone',
  'ar.scanToPlace': 'Scannez avec votre téléphone pour placer l’œuvre chez vous',
  'ar.scanToSeeOnWall': 'Scannez avec votre téléphone pour voir l’œuvre sur votre mur',
  'ar.badge': 'AR',
  'ar.modelBadge': 'Modèle AR · {size}',

  'viewer.loading': 'Chargement de l’aperçu 3D…',
  'viewer.previewAlt': 'Aperçu 3D de l’image',
  'viewer.previewAltTitled': 'Aperçu 3D\u00a0: {title}',

  'wall.seeOnWall': 'Voir sur un mur',
  'wall.heading': '{title} sur un mur',
  'wall.caption': 'Dessiné à l’échelle\u00a0: l’œuvre mesure {size}\u00a0; à côté, {reference}.',
  // "à côté de un" would need elision ("d’un"): the reference follows a semicolon instead.
  'wall.sceneLabel': '{title}, {size}, sur un mur\u00a0; à côté, {reference}',
  'wall.referenceSofa': 'un canapé de {size} de large',
  'wall.referencePerson': 'une personne de {size}',

  'size.pictureAndFramed': 'Œuvre {picture} · avec cadre {framed}',
  'size.withFramed': '{picture}, {framed} avec cadre',
  'count.sizes.one': '{n} format',
  'count.sizes.other': '{n} formats',
  'variant.legend': 'Format et cadre',
  'variant.name': '{size}, {frame}',
  'variant.withMat': '{frame} avec passe-partout',
  'variant.preparing': 'En préparation…',

  'item.pictureNumber': 'Image {n}',

  'frame.thin': 'Cadre fin {colour}',
  'frame.classic': 'Cadre classique {colour}',
  'frame.float': 'Caisse américaine {colour}',
  'frame.canvas': 'Toile sur châssis',
  'frame.colour': 'en {colour}',
  'frame.withMat': '{frame}, passe-partout {colour} de {width}',
  'colour.black': 'noir',
  'colour.white': 'blanc',
  'colour.oak': 'chêne',
  'colour.walnut': 'noyer',
  'colour.gold': 'or',
  'colour.silver': 'argent',

  'label.edition': 'Exemplaire {edition}',
  'price.from': 'à partir de {price}',
  'availability.available': 'Disponible',
  'availability.reserved': 'Réservé',
  'availability.sold': 'Vendu',
  'availability.not_for_sale': 'Hors vente',

  'status.converting': 'Conversion…',
  'status.notAvailable': 'Non disponible',
  'status.failed': 'Ce modèle AR n’a pas pu être créé.',
  'status.deletedTitle': 'Supprimé',
  'status.deleted': 'Ce modèle a été supprimé.',

  'widget.submitting': 'Envoi',
  'widget.waiting': 'En attente',
  'widget.converting': 'Conversion',
  'widget.error': 'Impossible de créer le modèle AR\u00a0: {message}',
  'widget.conversionFailed': 'échec de la conversion',
  'widget.viewerTitle': 'Visionneuse AR',
} satisfies Record<MessageKey, string>;
