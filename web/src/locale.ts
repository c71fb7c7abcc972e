/** Language choice, pure (unit-tested): "zh", "zh-CN", "zh-Hans-…" → zh-CN; else English. */
export type Locale = 'en' | 'zh-CN';

/** The locale for a navigator language list. */
export function pickLocale(languages: readonly string[]): Locale {
  for (const l of languages) {
    const low = l.toLowerCase();
    if (low.startsWith('zh')) return 'zh-CN';
    if (low.startsWith('en')) return 'en';
  }
  return 'en';
}
