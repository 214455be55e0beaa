import type { MessageKey } from './en';

/**
 * Japanese: polite form (です・ます), full-width punctuation (：、（）), and the gallery vocabulary
 * collectors know: 売約済 (sold), 商談中 (on hold), 非売品 (not for sale). "AR" and "3D" stay in Latin
 * letters, as Japanese UIs write them.
 */
export const ja = {
  'page.showcaseTitle': 'ARショーケース',
  'page.logoAlt': 'ロゴ',
  'page.linksLabel': 'リンク',
  'page.picturesLabel': '作品',
  'page.empty': 'まだ作品がありません。',
  'page.notFound': 'ページが見つかりません',

  'nav.allPictures': 'すべての作品',
  'nav.back': '戻る',
  'nav.previous': '前へ',
  'nav.next': '次へ',
  'nav.previousPicture': '前の作品',
  'nav.nextPicture': '次の作品',
  'nav.close': '閉じる',

  'item.picture': '作品',
  'item.largerView': '{title}：拡大表示',
  'item.viewDetails': '詳細を見る',
  'item.buy': '購入する',
  'item.preparing': 'ARモデルを準備しています…',
  'item.failed': 'この画像を変換できませんでした。',

  'ar.viewInYourSpace': 'お部屋で見る',
  'ar.viewOnYourWall': 'お部屋の壁で見る',
  'ar.viewIn3dAr': '3D / ARで見る',
  'ar.viewInAr': 'ARで見る',
  'ar.titleViewInAr': '{title}・ARで見る',
  'ar.openOnPhone': 'スマートフォンで開く',
  'ar.scanToPlace': 'スマートフォンでスキャンすると、お部屋に作品を置いてご覧いただけます',
  'ar.scanToSeeOnWall': 'スマートフォンでスキャンすると、お部屋の壁に作品を掛けてご覧いただけます',
  'ar.badge': 'AR',
  'ar.modelBadge': 'ARモデル・{size}',

  'viewer.loading': '3Dプレビューを読み込んでいます…',
  'viewer.previewAlt': '作品の3Dプレビュー',
  'viewer.previewAltTitled': '{title}の3Dプレビュー',

  'wall.seeOnWall': '壁に掛けて見る',
  'wall.heading': '壁に掛けた{title}',
  'wall.caption': '縮尺どおりに描いています。作品のサイズは{size}、隣は{reference}です。',
  'wall.sceneLabel': '{title}（{size}）を{reference}の隣の壁に掛けた様子',
  'wall.referenceSofa': '幅{size}のソファ',
  'wall.referencePerson': '身長{size}の人物',

  'size.pictureAndFramed': '作品 {picture}・額装時 {framed}',
  'size.withFramed': '{picture}（額装時 {framed}）',
  // Japanese has no plural forms: Intl.PluralRules('ja') only ever says "other"; "one" is there for the type.
  'count.sizes.one': '{n}サイズ',
  'count.sizes.other': '{n}サイズ',
  'variant.legend': 'サイズと額装',
  'variant.name': '{size}、{frame}',
  'variant.withMat': '{frame}・マット付き',
  'variant.preparing': '準備中…',

  'item.pictureNumber': '作品{n}',

  'frame.thin': '細フレーム{colour}',
  'frame.classic': 'クラシックフレーム{colour}',
  'frame.float': '浮かし額{colour}',
  'frame.canvas': 'キャンバス張り',
  'frame.colour': '（{colour}色）',
  'frame.withMat': '{frame}、{colour}のマット {width}',
  'colour.black': 'ブラック',
  'colour.white': 'ホワイト',
  'colour.oak': 'オーク',
  'colour.walnut': 'ウォルナット',
  'colour.gold': 'ゴールド',
  'colour.silver': 'シルバー',

  'label.edition': 'エディション {edition}',
  'price.from': '{price}から',
  'availability.available': '販売中',
  'availability.reserved': '商談中',
  'availability.sold': '売約済',
  'availability.not_for_sale': '非売品',

  'status.converting': '変換しています…',
  'status.notAvailable': 'ご利用いただけません',
  'status.failed': 'このARモデルを作成できませんでした。',
  'status.deletedTitle': '削除済み',
  'status.deleted': 'このモデルは削除されました。',

  'widget.submitting': '送信しています',
  'widget.waiting': '待機しています',
  'widget.converting': '変換しています',
  'widget.error': 'ARモデルを作成できませんでした：{message}',
  'widget.conversionFailed': '変換に失敗しました',
  'widget.viewerTitle': 'ARビューア',
} satisfies Record<MessageKey, string>;
