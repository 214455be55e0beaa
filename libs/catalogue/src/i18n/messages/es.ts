import type { MessageKey } from './en';

/** Spanish: "tú", as Spanish-language shopping and AR interfaces address visitors; "teléfono" rather than Spain's "móvil" or the Americas' "celular". */
export const es = {
  'page.showcaseTitle': 'Muestra en AR',
  'page.logoAlt': 'Logotipo',
  'page.linksLabel': 'Enlaces',
  'page.picturesLabel': 'Imágenes',
  'page.empty': 'Todavía no hay imágenes.',
  'page.notFound': 'No encontrado',

  'nav.allPictures': 'Todas las imágenes',
  'nav.back': 'Volver',
  'nav.previous': 'Anterior',
  'nav.next': 'Siguiente',
  'nav.previousPicture': 'Imagen anterior',
  'nav.nextPicture': 'Imagen siguiente',
  'nav.close': 'Cerrar',

  'item.picture': 'Imagen',
  'item.largerView': '{title}: vista ampliada',
  'item.viewDetails': 'Ver detalles',
  'item.buy': 'Comprar',
  'item.preparing': 'Preparando el modelo AR…',
  'item.failed': 'No se ha podido convertir esta imagen.',

  'ar.viewInYourSpace': 'Ver en tu espacio',
  'ar.viewOnYourWall': 'Ver en tu pared',
  'ar.viewIn3dAr': 'Ver en 3D / AR',
  'ar.viewInAr': 'Ver en AR',
  'ar.titleViewInAr': '{title} · Ver en AR',
  'ar.openOnPhone': 'Abrir en tu teléfono',
  'ar.scanToPlace': 'Escanea con tu teléfono para colocar la obra en tu espacio',
  'ar.scanToSeeOnWall': 'Escanea con tu teléfono para ver la obra en tu pared',
  'ar.badge': 'AR',
  'ar.modelBadge': 'Modelo AR · {size}',

  'viewer.loading': 'Cargando la vista previa 3D…',
  'viewer.previewAlt': 'Vista previa 3D de la imagen',
  'viewer.previewAltTitled': 'Vista previa 3D: {title}',

  'wall.seeOnWall': 'Verla en una pared',
  'wall.heading': '{title} en una pared',
  'wall.caption': 'Dibujado a escala: la obra mide {size}; a su lado, {reference}.',
  'wall.sceneLabel': '{title}, {size}, en una pared junto a {reference}',
  'wall.referenceSofa': 'un sofá de {size} de ancho',
  'wall.referencePerson': 'una persona de {size} de altura',

  'size.pictureAndFramed': 'Obra {picture} · con marco {framed}',
  'size.withFramed': '{picture}, {framed} con marco',
  'count.sizes.one': '{n} tamaño',
  'count.sizes.other': '{n} tamaños',

  'label.edition': 'Ejemplar {edition}',
  'price.from': 'desde {price}',
  'availability.available': 'Disponible',
  'availability.reserved': 'Reservado',
  'availability.sold': 'Vendido',
  'availability.not_for_sale': 'No está a la venta',

  'status.converting': 'Convirtiendo…',
  'status.notAvailable': 'No disponible',
  'status.failed': 'No se ha podido crear este modelo AR.',
  'status.deletedTitle': 'Eliminado',
  'status.deleted': 'Este modelo se ha eliminado.',

  'widget.submitting': 'Enviando',
  'widget.waiting': 'En espera',
  'widget.converting': 'Convirtiendo',
  'widget.error': 'No se ha podido crear el modelo AR: {message}',
  'widget.conversionFailed': 'la conversión ha fallado',
  'widget.viewerTitle': 'Visor AR',
} satisfies Record<MessageKey, string>;
