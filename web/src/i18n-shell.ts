/** Messages about the app itself against the hub's build (the cached shell, a screen's script), kept apart from i18n.ts. Spread into both tables there. */
export const shellEn = {
  /** The service worker opened the app from its cached shell and the hub has a newer build (web/public/sw.js). */
  appUpdated: 'A new version of the app is on the hub: reload to use it.',
  /** A screen's script could not be fetched (web/src/views/lazy-view.tsx). */
  screenLoadFailed: 'This screen could not be loaded: the hub may have a newer version of the app, or the network is down.',
  reloadApp: 'Reload the app',
};

export const shellZh: Record<keyof typeof shellEn, string> = {
  appUpdated: '主机上有新版本的应用：重新加载即可使用。',
  screenLoadFailed: '无法加载此页面：主机上可能有新版本的应用，或网络已断开。',
  reloadApp: '重新加载应用',
};
