export type Platform = 'ios' | 'android' | 'desktop';

/** The platform an AR launch must target, from the User-Agent (iPadOS 13+ reports as a Mac with touch: the page script corrects that). */
export function detectPlatform(userAgent: string | undefined): Platform {
  const ua = userAgent ?? '';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios';
  if (/Android/i.test(ua)) return 'android';
  return 'desktop';
}

/**
 * Scene Viewer intent URL (Android): needs an https GLB and a user tap; falls back to the embed page.
 *
 * @example
 * sceneViewerIntent('https://x/model.glb', 'https://x/embed/emb_1', 'Picture')
 */
export function sceneViewerIntent(glbUrl: string, fallbackUrl: string, title: string): string {
  const params = new URLSearchParams({ mode: 'ar_preferred', file: glbUrl, title, resizable: 'false' });
  return (
    `intent://arvr.google.com/scene-viewer/1.2?${params.toString()}` +
    `#Intent;scheme=https;package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;` +
    `S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end;`
  );
}

/** Quick Look link target (iOS): the USDZ at its real size (no pinch scaling). */
export function quickLookHref(usdzUrl: string): string {
  return `${usdzUrl}#allowsContentScaling=0`;
}
